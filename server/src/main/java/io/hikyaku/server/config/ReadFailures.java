package io.hikyaku.server.config;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;

/**
 * Why a file could not be read, in words: java.nio's exceptions carry only the path as their
 * message ("cannot read config file x: x" said nothing).
 */
final class ReadFailures {

    private ReadFailures() {}

    static String why(IOException e) {
        if (e instanceof NoSuchFileException) {
            return "No such file";
        }
        if (e instanceof AccessDeniedException) {
            return "Permission denied";
        }
        if (e instanceof FileSystemException fs && fs.getReason() != null) {
            return fs.getReason();
        }
        if (e instanceof java.nio.charset.CharacterCodingException) {
            return "not UTF-8 text";
        }
        return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    }
}
