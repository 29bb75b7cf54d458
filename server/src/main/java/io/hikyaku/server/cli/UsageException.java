package io.hikyaku.server.cli;

/** A command line that cannot be understood (unknown flag, missing value, bad number): exit code 2. */
final class UsageException extends RuntimeException {

    UsageException(String message) {
        super(message);
    }
}
