package io.hikyaku.cloudwatch;

/** CloudWatch's period rules, at this server's one-minute resolution. */
final class Periods {

    private Periods() {}

    /** 1, 5, 10, 20, 30 or a multiple of 60 seconds. */
    static void check(long period, String path) {
        boolean highResolution = period == 1 || period == 5 || period == 10 || period == 20 || period == 30;
        if (period < 1 || !highResolution && period % 60 != 0) {
            throw CloudWatchException.invalidValue("The parameter " + path + " must be a multiple of 60.");
        }
    }

    /** The period in whole minutes (the kept resolution is one minute: shorter periods answer per minute). */
    static long minutes(long period) {
        return Math.max(1, period / 60);
    }
}
