/**
 * The report mech prints at exit (and periodically when asked): an immutable {@link
 * io.mech.agent.report.Report} rendered as text for people and as JSON for tools.
 */
package io.mech.agent.report;
