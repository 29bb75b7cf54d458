package io.hikyaku.scheduler;

/** A request the Scheduler refuses: its error type, HTTP status and message as AWS words them. */
public final class SchedulerException extends Exception {

    private final String type;
    private final int status;

    public SchedulerException(String type, int status, String message) {
        super(message, null, false, false);
        this.type = type;
        this.status = status;
    }

    public static SchedulerException validation(String message) {
        return new SchedulerException("ValidationException", 400, message);
    }

    public static SchedulerException notFound(String message) {
        return new SchedulerException("ResourceNotFoundException", 404, message);
    }

    public static SchedulerException conflict(String message) {
        return new SchedulerException("ConflictException", 409, message);
    }

    public String type() {
        return type;
    }

    public int status() {
        return status;
    }
}
