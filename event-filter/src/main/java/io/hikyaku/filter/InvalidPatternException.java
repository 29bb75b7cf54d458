package io.hikyaku.filter;

/** A filter pattern that is not valid Lambda event-filtering syntax; {@link #getMessage()} says where. */
public final class InvalidPatternException extends Exception {

    public InvalidPatternException(String message) {
        super(message, null, false, false);
    }
}
