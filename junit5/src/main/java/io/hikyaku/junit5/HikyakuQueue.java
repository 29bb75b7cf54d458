package io.hikyaku.junit5;

import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** A queue the extension's server creates before the tests of the annotated class run. */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@Repeatable(HikyakuQueues.class)
public @interface HikyakuQueue {
    /** The queue name; a FIFO queue's ends in {@code .fifo}. */
    String name();

    /** A FIFO queue (FifoQueue=true); the name must then end in {@code .fifo}. */
    boolean fifo() default false;

    /** More attributes as {@code "Name=Value"}, e.g. {@code "VisibilityTimeout=5"}. */
    String[] attributes() default {};
}
