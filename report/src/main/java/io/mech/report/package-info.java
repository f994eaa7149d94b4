/**
 * What mech says, in one place: the {@link io.mech.report.Report} every part fills (hiccup
 * summaries, causes, and one {@link io.mech.report.Section} of typed {@link io.mech.report.ReportRow}s
 * per probe), rendered as text for people ({@link io.mech.report.TextReport}) and as JSON for tools
 * ({@link io.mech.report.JsonReport}), through the one JSON writer that {@code replay} uses too
 * ({@link io.mech.report.Json}). Depends on nothing, so that every module may use it.
 */
package io.mech.report;
