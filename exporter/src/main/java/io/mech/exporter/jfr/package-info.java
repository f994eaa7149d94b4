/**
 * mech's own JFR events, in the "mech" category of JDK Mission Control. They show in any
 * recording the user takes; committing one costs nothing while no recording enables it.
 */
package io.mech.exporter.jfr;
