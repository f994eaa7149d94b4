package io.mech.agent.runtime;

import io.mech.exporter.CgroupFamilies;
import io.mech.exporter.HiccupFamilies;
import io.mech.exporter.http.HttpServer;
import io.mech.hiccup.HiccupSnapshot;
import io.mech.hiccup.cause.Cause;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.PackedHistogram;
import org.HdrHistogram.SingleWriterRecorder;
import org.HdrHistogram.WriterReaderPhaser;

/**
 * Initialises, before the host's main, the classes a heap that fills from the host's first line
 * must not meet uninitialised on mech's threads. A class whose static initialiser meets a full
 * heap stays broken for the JVM's life: a 64 MiB host that filled its heap from its first line
 * lost {@code FileChannelImpl}, {@code IOUtil}, {@code ZoneInfoFile} or HdrHistogram's
 * {@code Histogram} to mech's start in 3 runs of 17 on JDK 17, and with them its own file
 * channels, sockets or time zone, and mech its recorder, log, /metrics or report. Before main
 * the heap is the JVM's, not yet the host's. Two kinds:
 * <ul>
 *   <li>the JDK's classes that mech's start would otherwise be the first to initialise and that
 *       every host shares: the file system and file channels (the log, the report), sockets and
 *       addresses (/metrics), direct buffers, and the time zone (the log's name and header); the
 *       names are those {@code -Xlog:class+init} showed mech's threads initialising on JDK 17
 *       and 25, in these packages, and a name another JDK lacks is passed over;</li>
 *   <li>mech's own classes with a static initialiser on the way to recording, serving /metrics
 *       and reporting, found the same way.</li>
 * </ul>
 * The work runs on a thread of its own beside the rest of premain (option parsing, mech's
 * set-up), which the host's thread waits for at most {@link #WAIT_MILLIS} before main: done on
 * the host's thread it added about 20 ms to a hello world's start-up, a third of premain's own.
 *
 * <p>Guarantees: {@link #start} and {@link #awaitBeforeMain} are called once each, on the host's
 * thread in premain, and never throw; the thread touches nothing else of mech's.
 */
final class ClassesBeforeMain implements Runnable {

    /** The longest the host's thread waits for the classes before main. */
    static final long WAIT_MILLIS = 2_000;

    /**
     * The JDK's file system, file channels, direct and mapped buffers and time zone: the log, the
     * report, and HotSpot's counters, which the recorder's meter maps in premain beside this thread.
     */
    private static final String[] JDK_FILES = {
        "java.nio.Bits", "java.nio.DirectByteBuffer", "java.nio.DirectByteBuffer$Deallocator", "java.nio.DirectByteBufferR",
        "java.nio.DirectLongBufferU", "jdk.internal.misc.ExtendedMapMode",
        "java.nio.LongBuffer", "java.nio.channels.FileChannel", "java.nio.channels.spi.AbstractInterruptibleChannel",
        "java.nio.file.AccessMode", "java.nio.file.FileSystems$DefaultFileSystemHolder", "java.nio.file.Files", "java.nio.file.LinkOption",
        "java.nio.file.StandardOpenOption", "java.nio.file.spi.FileSystemProvider",
        "java.time.Clock", "java.time.Duration", "java.time.Instant", "java.time.LocalDate", "java.time.LocalDateTime",
        "java.time.LocalTime", "java.time.ZoneId", "java.time.ZoneOffset", "java.time.temporal.ChronoField", "java.time.temporal.ChronoUnit",
        "java.util.TimeZone",
        "sun.nio.ch.FileChannelImpl", "sun.nio.ch.FileDispatcherImpl", "sun.nio.ch.FileKey", "sun.nio.ch.FileLockImpl",
        "sun.nio.ch.FileLockTable", "sun.nio.ch.IOUtil", "sun.nio.ch.NativeDispatcher", "sun.nio.ch.NativeThread",
        "sun.nio.ch.NativeThreadSet", "sun.nio.ch.UnixDispatcher", "sun.nio.ch.UnixFileDispatcherImpl", "sun.nio.ch.Util",
        "sun.nio.ch.Util$BufferCache",
        "sun.nio.fs.AbstractBasicFileAttributeView", "sun.nio.fs.DefaultFileSystemProvider", "sun.nio.fs.NativeBuffer",
        "sun.nio.fs.NativeBuffers", "sun.nio.fs.UnixChannelFactory", "sun.nio.fs.UnixChannelFactory$1", "sun.nio.fs.UnixFileSystemProvider",
        "sun.nio.fs.UnixFileSystemProvider$3", "sun.nio.fs.UnixNativeDispatcher", "sun.nio.fs.UnixPath", "sun.nio.fs.Util",
        "sun.util.calendar.ZoneInfo", "sun.util.calendar.ZoneInfoFile", "jdk.internal.util.DateTimeHelper",
        // the report's figures, the log's compression and the recorder's totals: met first under pressure on mech-start
        // (BigDecimal, once on JDK 21: the report failed, and the host's own BigDecimal with it)
        "java.math.BigDecimal", "java.math.BigInteger", "java.math.MathContext", "java.math.RoundingMode",
        "java.util.TimSort", "java.util.concurrent.atomic.AtomicLongArray", "java.util.zip.Deflater",
        "java.util.zip.Deflater$DeflaterZStreamRef", "sun.nio.cs.ThreadLocalCoders",
    };

    /**
     * What mech's start and its threads initialise next, in the breath a host that fills its heap
     * from its first line gives it: -Xlog:class+init named them on mech-start, the causes' and the
     * lock watch's threads (JDK 21 and 25). {@code ThreadPoolExecutor} was lost to /metrics' start
     * once in such a breath (JDK 25), and with it every executor the host would have made.
     */
    private static final String[] JDK_START = {
        "java.io.ByteArrayInputStream", "java.lang.management.ThreadInfo", "java.util.Arrays$LegacyMergeSort",
        "java.util.Collections$ReverseComparator", "java.util.Collections$ReverseComparator2",
        "java.util.Comparators$NaturalOrderComparator", "java.util.TreeMap",
        "java.util.concurrent.atomic.AtomicReferenceArray", "java.util.stream.LongPipeline$StatelessOp", "java.util.stream.Nodes",
        "java.util.stream.Nodes$LongFixedNodeBuilder", "jdk.internal.event.ThreadSleepEvent", "jdk.internal.math.DoubleToDecimal",
        "jdk.internal.math.MathUtils", "jdk.internal.math.ToDecimal", "sun.nio.cs.Surrogate$Parser", "sun.nio.cs.US_ASCII$Encoder",
        "java.lang.invoke.MethodHandleImpl$AsVarargsCollector",
        // a thread's start (JDK 21 on): lost, no thread of the host's would start again
        "jdk.internal.vm.SharedThreadContainer", "jdk.internal.vm.StackableScope", "jdk.internal.vm.ThreadContainers",
        "jdk.internal.vm.ThreadContainers$RootContainer$TrackingRootContainer",
    };

    /** The JDK's sockets and addresses: /metrics, only when it is on. */
    private static final String[] JDK_SOCKETS = {
        "java.net.Inet4Address", "java.net.Inet6Address", "java.net.InetAddress", "java.net.InetSocketAddress", "java.net.ServerSocket",
        "java.net.Socket", "java.net.SocketImpl", "java.net.StandardProtocolFamily", "java.net.StandardSocketOptions",
        "jdk.net.ExtendedSocketOptions", "jdk.net.ExtendedSocketOptions$2", "jdk.net.ExtendedSocketOptions$PlatformSocketOptions",
        "jdk.net.LinuxSocketOptions", "sun.net.NetHooks", "sun.nio.ch.ExtendedSocketOption", "sun.nio.ch.Net", "sun.nio.ch.NioSocketImpl",
        "sun.nio.ch.SocketDispatcher", "sun.nio.ch.SocketOptionRegistry$LazyInitialization",
        "java.util.concurrent.AbstractExecutorService", "java.util.concurrent.ThreadPoolExecutor",
    };

    /** mech's own that are not public, for recording: by name, each checked by ClassesBeforeMainTest. */
    private static final String[] MECH = {"io.mech.hiccup.CpuCgroup", "io.mech.hiccup.LogLines", "io.mech.hiccup.cause.OsCpu"};

    /** mech's own that are not public, for /metrics. */
    private static final String[] MECH_ENDPOINT = {"io.mech.exporter.ClientErrors", "io.mech.exporter.EndpointRoutes",
        "io.mech.exporter.http.Deadlines"};

    private final Thread thread;
    private final boolean endpoint;

    private ClassesBeforeMain(final boolean endpoint) {
        this.endpoint = endpoint;
        thread = new Thread(this, "mech-classes");
        thread.setDaemon(true);
    }

    /**
     * @param endpoint whether /metrics is on: its classes are made only then, for a host without
     *                 it never loads them
     * @return the initialisation, started
     */
    static ClassesBeforeMain start(final boolean endpoint) {
        final ClassesBeforeMain classes = new ClassesBeforeMain(endpoint);
        classes.thread.start();
        return classes;
    }

    /** Waits for the classes, {@link #WAIT_MILLIS} at most: the host's main never waits longer. */
    void awaitBeforeMain() {
        try {
            thread.join(WAIT_MILLIS);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void run() {
        // the boot loader's own lookup, native: through the platform loader's Java code, interpreted, it took twice as long
        initialiseAll(JDK_FILES, null);
        initialiseAll(JDK_START, null);
        // literals here, not in a field: they load on this thread, not on the host's
        initialiseAll(Histogram.class, PackedHistogram.class, SingleWriterRecorder.class, WriterReaderPhaser.class, HiccupSnapshot.class,
            Cause.class);
        initialiseAll(MECH, ClassesBeforeMain.class.getClassLoader());
        if (endpoint) {
            initialiseAll(JDK_SOCKETS, null);
            initialiseAll(HiccupFamilies.class, CgroupFamilies.class, HttpServer.class);
            initialiseAll(MECH_ENDPOINT, ClassesBeforeMain.class.getClassLoader());
        }
    }

    private static void initialiseAll(final String[] names, final ClassLoader loader) {
        for (final String name : names) {
            initialise(name, loader);
        }
    }

    /** Initialises classes already loaded, through their own loaders. */
    private static void initialiseAll(final Class<?>... owns) {
        for (final Class<?> own : owns) {
            initialise(own.getName(), own.getClassLoader());
        }
    }

    private static void initialise(final String name, final ClassLoader loader) {
        try {
            Class.forName(name, true, loader);
        } catch (final ClassNotFoundException | LinkageError another) {
            // not this JDK's: its start initialises what it has instead
        }
    }

    /** @return the classes initialised by name: the JDK's (files, sockets), then mech's (recording, /metrics), for the tests */
    static String[][] names() {
        final String[] jdk = new String[JDK_FILES.length + JDK_START.length];
        System.arraycopy(JDK_FILES, 0, jdk, 0, JDK_FILES.length);
        System.arraycopy(JDK_START, 0, jdk, JDK_FILES.length, JDK_START.length);
        return new String[][] {jdk, JDK_SOCKETS.clone(), MECH.clone(), MECH_ENDPOINT.clone()};
    }
}
