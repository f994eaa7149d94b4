/**
 * The hiccup recorder: a thread that waits for a fixed resolution and records, into an
 * HdrHistogram recorder, how much longer than that it was kept from running. Every interval a
 * second thread swaps the interval histogram out and writes it to an interval log in
 * HdrHistogram's log format, version 1.3.
 *
 * <p>Entry point: {@link io.mech.hiccup.HiccupRecorder}.
 */
package io.mech.hiccup;
