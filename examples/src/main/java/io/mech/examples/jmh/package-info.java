/**
 * JMH wrappers over the plain kernels: each benchmark builds its subject through the kernel's own
 * factory and calls the kernel's own operations, so no kernel logic lives here. Built into
 * {@code benchmarks.jar} only. Run, for example:
 *
 * <pre>
 * java -jar examples/target/benchmarks.jar FalseSharingBenchmark -f 1 -wi 3 -i 5
 * java -jar examples/target/benchmarks.jar SpscBenchmark -p variant=cached
 * </pre>
 *
 * Kernels shaped as whole runs rather than operations (mpsc, lazy-set, back-pressure,
 * coordinated-omission, gc-pause) have no wrapper: JMH would time the harness, not the effect.
 */
package io.mech.examples.jmh;
