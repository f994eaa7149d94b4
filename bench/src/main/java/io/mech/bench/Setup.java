package io.mech.bench;

import java.nio.file.Path;
import java.util.Optional;
import java.util.Set;

/**
 * What every benchmark needs: the jars under test, a scratch directory and how many rounds.
 *
 * @param mechJar     agent/target/mech.jar
 * @param examplesJar examples/target/mech-examples.jar
 * @param benchJar    the jar holding this bench's host applications
 * @param jHiccup     the reference recorder; empty when its jar is missing, and then its rows are left out
 * @param workDir     where forked JVMs run and log
 * @param rounds      alternating rounds per figure, at least 5
 * @param seconds     how long each kernel runs in the overhead figures
 * @param scrapeSeconds how long the concurrent scrapers run
 * @param loads       the kinds of load the overhead part measures (CPU-bound, allocation-heavy, ...); empty for all
 */
record Setup(Path mechJar, Path examplesJar, Path benchJar, Optional<JHiccup> jHiccup, Path workDir, int rounds, double seconds,
             int scrapeSeconds, Set<String> loads) {
}
