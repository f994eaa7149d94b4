package io.mech.hiccup;

import java.nio.file.Path;

/**
 * What became of a hiccup log, for whoever reports on it: the file written, or why none was.
 *
 * @param path    the file the log goes to
 * @param opened  whether the file was opened and written; false when nothing of this run is in it
 * @param problem why the log was not written, or stopped being written (recording went on in
 *                memory); null while every write succeeded
 */
public record LogStatus(Path path, boolean opened, String problem) {
}
