package io.rekey.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * An IT of the long tier: the pipeline on the pseudo-cluster and the fault and live-change ITs that
 * each take a minute or more (killed drivers and region servers, speculation, random index
 * changes). The default {@code mvn -B verify} leaves them out to stay under 12 minutes; {@code mvn
 * -B verify -Plong} runs exactly them, and {@code .ci/run} runs both, so no assertion is lost.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Tag("long")
public @interface LongTier {}
