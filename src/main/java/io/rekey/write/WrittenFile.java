package io.rekey.write;

import java.io.Serializable;

/**
 * One HFile as the task attempt that wrote it reports it to the driver. The file lies in that
 * attempt's own directory until the driver commits it ({@link HFileCommit}); nothing else ever
 * names it, so a losing attempt (a retry's predecessor, a speculative copy) can neither replace nor
 * delete a winner's file.
 *
 * @param path where the attempt wrote it (absolute)
 * @param name its name in the load directory, {@code FAMILY/pPPPPP-SSS}: unique per partition, and
 *     exactly one attempt of a partition is committed
 * @param firstRow the first row key in the file
 * @param lastRow the last row key in the file
 */
public record WrittenFile(
    String path,
    String name,
    String family,
    long bytes,
    long cells,
    byte[] firstRow,
    byte[] lastRow)
    implements Serializable {}
