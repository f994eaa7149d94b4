/**
 * async-profiler captures: the native library loaded on first use, and one capture at a time
 * written as an HTML flame graph.
 */
package io.mech.probes.profiler;
