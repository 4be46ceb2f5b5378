package io.rekey.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * An IT that runs in every cell of the support matrix (Spark × HBase, see the pom's profiles), not
 * only in the default one: the subset that proves a cell works (rekey + verify with versions,
 * timestamps and delete markers, audit, index build + lookup, the jar on its own Spark).
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Tag("matrix")
public @interface EveryCell {}
