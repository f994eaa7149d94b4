package io.mech.exporter;

/**
 * Field numbers of Prometheus's {@code io/prometheus/client/metrics.proto} (prometheus/client_model,
 * proto2) for the fields mech writes, and of {@code google.protobuf.Timestamp}. Each field's wire
 * type is in the comment: it decides which {@link ProtobufBuffer} method writes it.
 */
final class MetricsProto {

    private MetricsProto() {
    }

    /** {@code MetricFamily}. */
    static final class Family {
        /** string. */
        static final int NAME = 1;
        /** string. */
        static final int HELP = 2;
        /** enum {@code MetricType}. */
        static final int TYPE = 3;
        /** repeated {@code Metric}. */
        static final int METRIC = 4;

        private Family() {
        }
    }

    /** The values of enum {@code MetricType}. */
    static final class Type {
        static final int COUNTER = 0;
        static final int GAUGE = 1;
        static final int SUMMARY = 2;
        static final int UNTYPED = 3;
        static final int HISTOGRAM = 4;
        static final int GAUGE_HISTOGRAM = 5;

        private Type() {
        }
    }

    /** {@code Metric}: one series, of which exactly one of the value messages is set. */
    static final class Metric {
        /** repeated {@code LabelPair}. */
        static final int LABEL = 1;
        /** {@code Gauge}. */
        static final int GAUGE = 2;
        /** {@code Counter}. */
        static final int COUNTER = 3;
        /** {@code Summary}. */
        static final int SUMMARY = 4;
        /** {@code Untyped}. */
        static final int UNTYPED = 5;
        /** int64. */
        static final int TIMESTAMP_MS = 6;
        /** {@code Histogram}. */
        static final int HISTOGRAM = 7;

        private Metric() {
        }
    }

    /** {@code LabelPair}. */
    static final class Label {
        /** string. */
        static final int NAME = 1;
        /** string. */
        static final int VALUE = 2;

        private Label() {
        }
    }

    /** {@code Gauge}, {@code Untyped}: value is field 1, a double, in both. */
    static final class Value {
        /** double. */
        static final int VALUE = 1;

        private Value() {
        }
    }

    /** {@code Counter}. */
    static final class Counter {
        /** double. */
        static final int VALUE = 1;
        /** {@code Exemplar}. */
        static final int EXEMPLAR = 2;
        /** {@code google.protobuf.Timestamp}. */
        static final int CREATED_TIMESTAMP = 3;

        private Counter() {
        }
    }

    /** {@code Summary}. */
    static final class Summary {
        /** uint64. */
        static final int SAMPLE_COUNT = 1;
        /** double. */
        static final int SAMPLE_SUM = 2;
        /** repeated {@code Quantile}. */
        static final int QUANTILE = 3;

        private Summary() {
        }
    }

    /** {@code Quantile}. */
    static final class Quantile {
        /** double. */
        static final int QUANTILE = 1;
        /** double. */
        static final int VALUE = 2;

        private Quantile() {
        }
    }

    /** {@code Histogram}: classic buckets, native buckets, or both. */
    static final class Histogram {
        /** uint64. */
        static final int SAMPLE_COUNT = 1;
        /** double. */
        static final int SAMPLE_SUM = 2;
        /** repeated {@code Bucket}: the classic buckets. */
        static final int BUCKET = 3;
        /** sint32. */
        static final int SCHEMA = 5;
        /** double. */
        static final int ZERO_THRESHOLD = 6;
        /** uint64. */
        static final int ZERO_COUNT = 7;
        /** repeated {@code BucketSpan}. */
        static final int NEGATIVE_SPAN = 9;
        /** repeated sint64, not packed (proto2). */
        static final int NEGATIVE_DELTA = 10;
        /** repeated {@code BucketSpan}. */
        static final int POSITIVE_SPAN = 12;
        /** repeated sint64, not packed (proto2). */
        static final int POSITIVE_DELTA = 13;

        private Histogram() {
        }
    }

    /** {@code Bucket}: one classic bucket. */
    static final class Bucket {
        /** uint64. */
        static final int CUMULATIVE_COUNT = 1;
        /** double. */
        static final int UPPER_BOUND = 2;
        /** {@code Exemplar}. */
        static final int EXEMPLAR = 3;

        private Bucket() {
        }
    }

    /** {@code BucketSpan}: consecutive native buckets. */
    static final class Span {
        /** sint32: the gap to the previous span, or the first span's first index. */
        static final int OFFSET = 1;
        /** uint32. */
        static final int LENGTH = 2;

        private Span() {
        }
    }

    /** {@code Exemplar}. */
    static final class Exemplar {
        /** repeated {@code LabelPair}. */
        static final int LABEL = 1;
        /** double. */
        static final int VALUE = 2;
        /** {@code google.protobuf.Timestamp}. */
        static final int TIMESTAMP = 3;

        private Exemplar() {
        }
    }

    /** {@code google.protobuf.Timestamp} (proto3: a zero field is left out). */
    static final class Timestamp {
        /** int64. */
        static final int SECONDS = 1;
        /** int32. */
        static final int NANOS = 2;

        private Timestamp() {
        }
    }
}
