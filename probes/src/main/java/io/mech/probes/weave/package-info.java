/**
 * What the probes that weave advice into JDK classes share: the bridge class defined inside a
 * JDK package ({@link io.mech.probes.weave.JdkBridge}).
 */
package io.mech.probes.weave;
