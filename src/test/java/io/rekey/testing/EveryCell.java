package io.rekey.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * An IT (a class, or one test of it) that runs in every cell of the support matrix (Spark × HBase,
 * see the pom's profiles), not only in the default one: the subset that proves a cell works (rekey
 * + verify with versions, timestamps and delete markers, audit, index build + lookup, the jar on
 * its own Spark). A test of a decision that is the same whatever the versions (an option's refusal,
 * a rule of the stages' own) runs in the default cell only.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Tag("matrix")
public @interface EveryCell {}
