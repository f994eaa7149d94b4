/**
 * mech bench: what mech costs its host and how fast its tools are, measured as ratios of runs
 * taken side by side (A B A B ...) in one sitting, because the machine is shared and noisy.
 */
package io.mech.bench;
