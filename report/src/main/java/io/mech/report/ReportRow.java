package io.mech.report;

/**
 * One finding of a {@link Section} for tools: a record whose components are strings, numbers and
 * booleans, written as one flat JSON object. Each part declares its own row records, so a row's
 * keys and their types are fixed where the part is, not assembled in a map.
 */
public interface ReportRow {

    /**
     * Writes this row's members, in order, into the object the caller has opened.
     *
     * @param json the writer, inside the row's object
     */
    void writeTo(Json json);
}
