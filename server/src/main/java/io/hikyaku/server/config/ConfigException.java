package io.hikyaku.server.config;

/** A setting that cannot be used; the message says which and why. */
public class ConfigException extends RuntimeException {

    public ConfigException(String message) {
        super(message);
    }

    public ConfigException(String message, Throwable cause) {
        super(message, cause);
    }
}
