package io.hikyaku.it.console;

import java.io.File;
import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Debian's headless Chromium for the console tests. Without /usr/bin/chromium and
 * /usr/bin/chromedriver a test fails when CI=true and is skipped, saying why, elsewhere.
 */
final class Chromium {

    /** Debian's paths; -Dconsole.chromium / -Dconsole.chromedriver for other systems. */
    private static final String CHROMIUM = System.getProperty("console.chromium", "/usr/bin/chromium");
    private static final String CHROMEDRIVER = System.getProperty("console.chromedriver", "/usr/bin/chromedriver");

    private Chromium() {
    }

    /** Skips the calling test class (or fails it under CI) when the browser is missing. */
    static void assumePresent(String testName) {
        boolean present = new File(CHROMIUM).canExecute() && new File(CHROMEDRIVER).canExecute();
        String why = "the console browser test needs Debian's chromium and chromium-driver (" + CHROMIUM + ", "
                + CHROMEDRIVER + "): apt-get install -y chromium chromium-driver";
        if (!present && "true".equalsIgnoreCase(System.getenv("CI"))) {
            throw new IllegalStateException("CI=true but " + why);
        }
        if (!present) { // surefire shows a class-level skip only as "Tests run: 0": say why on the console too
            System.err.println(testName + " SKIPPED: " + why);
        }
        Assumptions.assumeTrue(present, "SKIPPED: " + why);
    }

    static ChromeDriver start() {
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM);
        options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--window-size=1280,900", "--lang=en-US");
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(new File(CHROMEDRIVER))
                .usingAnyFreePort().build();
        return new ChromeDriver(service, options);
    }
}
