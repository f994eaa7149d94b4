package io.mech.examples;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Command line: {@code <kernel>[:variant][,<kernel>[:variant]...] [variant] [--seconds N] [--threads N]}, or
 * {@code list}. A list runs in one JVM, in order; naming a variant twice runs it twice, the second
 * time warm.
 * Prints one machine-parsable line per variant run; exits non-zero on any failed self-check.
 */
public final class Main {

    static final int OK = 0;
    static final int FAILED = 1;
    static final int USAGE = 2;

    private static final double DEFAULT_SECONDS = 2.0;

    private Main() {
    }

    /**
     * @param args see the class comment
     */
    public static void main(final String[] args) {
        final int status = run(args, System.out, System.err);
        if (status != OK) {
            System.exit(status);
        }
    }

    static int run(final String[] args, final PrintStream out, final PrintStream err) {
        if (args.length == 1 && args[0].equals("list")) {
            printList(out);
            return OK;
        }
        final List<String> positional = new ArrayList<>();
        double seconds = DEFAULT_SECONDS;
        int threads = 0;
        for (int i = 0; i < args.length; i++) {
            final String arg = args[i];
            if (arg.equals("--seconds") || arg.equals("--threads")) {
                if (i + 1 == args.length) {
                    err.println(arg + ": missing value");
                    return USAGE;
                }
                final String value = args[++i];
                try {
                    if (arg.equals("--seconds")) {
                        seconds = Double.parseDouble(value);
                        new RunConfig(seconds, 0);
                    } else {
                        threads = Integer.parseInt(value);
                        if (threads < 1) {
                            throw new IllegalArgumentException("threads must be >= 1, got " + threads);
                        }
                        new RunConfig(DEFAULT_SECONDS, threads);
                    }
                } catch (final IllegalArgumentException e) {
                    err.println(arg + ": bad value '" + value + "': " + e.getMessage());
                    return USAGE;
                }
            } else if (arg.startsWith("--")) {
                err.println(arg + ": unknown flag; known flags are --seconds and --threads");
                return USAGE;
            } else {
                positional.add(arg);
            }
        }
        if (positional.isEmpty() || positional.size() > 2) {
            err.println("usage: java -jar mech-examples.jar <kernel>[:variant][,...] [variant] [--seconds N] [--threads N] | list");
            printList(err);
            return USAGE;
        }
        final String[] names = positional.get(0).split(",");
        if (names.length > 1 && positional.size() == 2) {
            err.println("a variant can only be named with a single kernel, not with '" + positional.get(0)
                + "'; name variants in a list as kernel:variant");
            return USAGE;
        }
        final RunConfig config = new RunConfig(seconds, threads);
        int status = OK;
        for (final String name : names) {
            final String[] parts = name.split(":", 2);
            final Optional<Kernel> kernel = Kernels.runnable(parts[0]);
            if (kernel.isEmpty()) {
                err.println("unknown kernel '" + parts[0] + "'");
                printList(err);
                return USAGE;
            }
            final KernelDescriptor descriptor = kernel.get().descriptor();
            final String variantName = parts.length == 2 ? parts[1] : positional.size() == 2 ? positional.get(1) : null;
            final List<VariantDescriptor> variants;
            if (variantName != null) {
                final Optional<VariantDescriptor> variant = descriptor.variant(variantName);
                if (variant.isEmpty()) {
                    err.println("unknown variant '" + variantName + "' of kernel " + descriptor.name());
                    printList(err);
                    return USAGE;
                }
                variants = List.of(variant.get());
            } else {
                variants = descriptor.variants();
            }
            if (runVariants(kernel.get(), variants, config, out, err) == FAILED) {
                status = FAILED;
            }
        }
        return status;
    }

    private static int runVariants(final Kernel kernel, final List<VariantDescriptor> variants, final RunConfig config,
                                   final PrintStream out, final PrintStream err) {
        final KernelDescriptor descriptor = kernel.descriptor();
        int status = OK;
        for (final VariantDescriptor variant : variants) {
            final String prefix = "kernel=" + descriptor.name() + " variant=" + variant.name();
            try {
                out.println(prefix + " " + format(kernel.run(variant, config)));
            } catch (final VariantUnavailableException e) {
                out.println(prefix + " status=skipped");
                err.println(prefix + " skipped: " + e.getMessage());
            } catch (final CheckFailedException e) {
                err.println(prefix + " status=failed check: " + e.getMessage());
                status = FAILED;
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
                err.println(prefix + " status=failed interrupted");
                return FAILED;
            } catch (final RuntimeException | Error e) {
                err.println(prefix + " status=failed " + e);
                e.printStackTrace(err);
                status = FAILED;
            }
            out.flush();
        }
        return status;
    }

    static String format(final Measurement m) {
        final StringBuilder line = new StringBuilder(String.format(Locale.ROOT,
                "threads=%d seconds=%.2f ops=%d ops_per_sec=%.0f",
                m.threads(), m.nanos() / 1e9, m.ops(), m.opsPerSecond()));
        for (final Map.Entry<String, String> extra : m.extras().entrySet()) {
            line.append(' ').append(extra.getKey()).append('=').append(extra.getValue());
        }
        return line.toString();
    }

    static void printList(final PrintStream out) {
        for (final KernelDescriptor kernel : Kernels.all()) {
            out.printf("%-22s %s%n", kernel.name(), kernel.summary());
            for (final VariantDescriptor variant : kernel.variants()) {
                final String findings = variant.findings().isEmpty() ? "silent" : variant.findings().toString();
                out.printf("  %-20s %s %s%n", variant.name(), variant.summary(), findings);
            }
        }
    }
}
