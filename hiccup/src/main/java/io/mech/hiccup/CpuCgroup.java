package io.mech.hiccup;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * This process's CPU cgroup, found from {@code /proc/self/cgroup} under cgroup v2 (one
 * {@code 0::/path} line, files in {@code /sys/fs/cgroup/path}) or v1 (the hierarchy whose
 * controllers include {@code cpu}): where its throttling is counted ({@code cpu.stat}) and the
 * quota it is throttled to ({@code cpu.max}; v1 {@code cpu.cfs_quota_us} and {@code cpu.cfs_period_us}).
 * Inside a container the process's path may be one the container's own mount does not show; then
 * the mount's root is the container's cgroup.
 *
 * <p>Immutable once found; the quota's files are opened by whoever reads them ({@link #openQuota}).
 *
 * @param dir the cgroup's directory
 * @param v2  whether it is a cgroup v2 directory
 */
public record CpuCgroup(Path dir, boolean v2) {

    /** What {@link #ofThisProcess} found; guarded by the class's monitor. */
    private static CpuCgroup found;
    private static boolean looked;

    private static final Path ROOT = Path.of("/sys/fs/cgroup");

    /**
     * This process's CPU cgroup, found once by whichever thread asks first: the meter as it begins,
     * off the host's start path, or the causes as they start. Thread-safe.
     *
     * @return the cgroup; null for none
     */
    public static synchronized CpuCgroup ofThisProcess() {
        if (!looked) {
            found = find();
            looked = true;
        }
        return found;
    }

    /** This process's CPU cgroup, read now; null where there is none to read (not Linux, or no cpu controller mounted). */
    private static CpuCgroup find() {
        try {
            return find(Files.readAllLines(Path.of("/proc/self/cgroup")), ROOT);
        } catch (final IOException | RuntimeException e) {
            return null;
        }
    }

    /** The cgroup that these {@code /proc/self/cgroup} lines name, under a cgroup file system mounted at {@code root}. */
    static CpuCgroup find(final List<String> lines, final Path root) {
        for (final String line : lines) {
            final String[] parts = line.split(":", 3);
            if (parts.length < 3) {
                continue;
            }
            final String path = parts[2].startsWith("/") ? parts[2].substring(1) : parts[2];
            if (parts[0].equals("0") && parts[1].isEmpty() && Files.isRegularFile(root.resolve("cgroup.controllers"))) {
                final CpuCgroup v2 = first(true, root.resolve(path), root);
                if (v2 != null) {
                    return v2;
                }
            }
            if (List.of(parts[1].split(",")).contains("cpu")) {
                for (final String mount : List.of(parts[1], "cpu,cpuacct", "cpu")) {
                    final CpuCgroup v1 = first(false, root.resolve(mount).resolve(path), root.resolve(mount));
                    if (v1 != null) {
                        return v1;
                    }
                }
            }
        }
        return null;
    }

    private static CpuCgroup first(final boolean v2, final Path own, final Path mountRoot) {
        for (final Path dir : List.of(own, mountRoot)) {
            if (Files.isReadable(dir.resolve("cpu.stat"))) {
                return new CpuCgroup(dir, v2);
            }
        }
        return null;
    }

    /** Where the cgroup counts its throttling. */
    public Path cpuStat() {
        return dir.resolve("cpu.stat");
    }

    /**
     * Opens the quota's files, to be read as often as asked: a limit may change while the host
     * runs. {@code Files.readString} of {@code cpu.max} once a second, split by a pattern, was
     * 177 KiB of an idle host's garbage in its first 10 s.
     *
     * @return the open files, or null where they cannot be opened
     */
    public Quota openQuota() {
        final ProcFile quota = ProcFile.open(dir.resolve(v2 ? "cpu.max" : "cpu.cfs_quota_us"));
        if (quota == null || v2) {
            return quota == null ? null : new Quota(quota, null);
        }
        final ProcFile period = ProcFile.open(dir.resolve("cpu.cfs_period_us"));
        if (period == null) {
            quota.close();
            return null;
        }
        return new Quota(quota, period);
    }

    /**
     * A cgroup's quota files, kept open; a reading allocates nothing.
     *
     * <p>Thread contract: none; one thread at a time reads and closes.
     */
    public static final class Quota implements AutoCloseable {
        private final ProcFile quota;
        /** v1's separate period file; null under v2, whose {@code cpu.max} holds both. */
        private final ProcFile period;

        private Quota(final ProcFile quota, final ProcFile period) {
            this.quota = quota;
            this.period = period;
        }

        /**
         * Reads {@code {quota, period}} in microseconds into {@code into[0..1]}, the quota -1
         * where the cgroup has none ({@code max} under v2, {@code -1} under v1).
         *
         * @return false where a file could not be read: {@code into} is left as it was
         */
        public boolean read(final long[] into) {
            if (!quota.read() || period != null && !period.read()) {
                return false;
            }
            if (period == null) {
                final long unlimitedPeriod = quota.value("max ");
                into[0] = unlimitedPeriod >= 0 ? -1 : quota.field(0, 0);
                into[1] = unlimitedPeriod >= 0 ? unlimitedPeriod : quota.field(0, 1);
            } else {
                into[0] = quota.value("-") >= 0 ? -1 : quota.field(0, 0);
                into[1] = period.field(0, 0);
            }
            return true;
        }

        @Override
        public void close() {
            quota.close();
            if (period != null) {
                period.close();
            }
        }
    }
}
