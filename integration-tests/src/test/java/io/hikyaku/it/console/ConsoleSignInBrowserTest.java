package io.hikyaku.it.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.identity.AuthMode;
import io.hikyaku.identity.Identities;
import io.hikyaku.identity.IdentitiesConfig;
import io.hikyaku.server.HikyakuServer;
import io.hikyaku.server.QueueDefinition;
import io.hikyaku.server.SecurityConfig;
import io.hikyaku.server.ServerConfig;
import io.hikyaku.server.StorageMode;
import io.hikyaku.server.config.ConfigFile;
import java.io.File;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * The console with authentication on ({@code auth sigv4}, accounts from a config): the console asks
 * for an access key and secret, refuses a wrong secret with the server's SigV4 error, and then every
 * page (queues, peek, send, purge, redrive, the metric charts) works through signed API calls as
 * that principal, confined to its account. The server's clock runs with real time plus an offset the
 * test moves, so that a minute of known traffic can be closed and sampled into the metric history
 * without waiting (the browser signs with real time; the offset stays far inside SigV4's 15 minutes).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ConsoleSignInBrowserTest {

    private static final String A = "111111111111";
    private static final String ROOT_A = "AKIAROOTAAAAAAAAAAAA";
    private static final String ROOT_A_SECRET = "rootA/secret/0123456789abcdefghijklmnopq";
    private static final String ROOT_B = "AKIAROOTBBBBBBBBBBBB";
    private static final String ROOT_B_SECRET = "rootB/secret/0123456789abcdefghijklmnopq";
    private static final String CONFIG = """
            accounts:
              - id: "111111111111"
                rootKeys:
                  - {accessKeyId: AKIAROOTAAAAAAAAAAAA, secretAccessKey: "rootA/secret/0123456789abcdefghijklmnopq"}
                users:
                  - name: sender
                    accessKeys:
                      - {accessKeyId: AKIASENDER0000000001, secretAccessKey: "sender/secret/0123456789abcdefghijklmno"}
                    policies:
                      send-only: {Version: "2012-10-17", Statement: [{Effect: Allow, Action: "sqs:SendMessage", Resource: "arn:aws:sqs:*:111111111111:orders"}]}
              - id: "222222222222"
                rootKeys:
                  - {accessKeyId: AKIAROOTBBBBBBBBBBBB, secretAccessKey: "rootB/secret/0123456789abcdefghijklmnopq"}
            """;
    private static final Duration WAIT = Duration.ofSeconds(15);

    /** Real time plus an offset the test moves forward. */
    private static final class OffsetClock extends Clock {
        private final AtomicReference<Duration> offset = new AtomicReference<>(Duration.ZERO);

        void advance(Duration by) {
            offset.updateAndGet(o -> o.plus(by));
        }

        @Override
        public Instant instant() {
            return Instant.now().plus(offset.get());
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }
    }

    private final OffsetClock clock = new OffsetClock();
    private HikyakuServer server;
    private SqsClient sqs;
    private ChromeDriver browser;
    private WebDriverWait wait;
    private Path screenshots;

    @BeforeAll
    void start() {
        Chromium.assumePresent("ConsoleSignInBrowserTest");
        Identities identities = new IdentitiesConfig(Map.<String, String>of()::get).parse(ConfigFile.parse(CONFIG).accounts(), "test");
        server = HikyakuServer.start(ServerConfig.defaults().withPort(0).withStorage(StorageMode.MEMORY).withClock(clock)
                        .withQueues(List.of(new QueueDefinition("orders", Map.of(), Map.of(), null, null, A))),
                SecurityConfig.defaults().withAuth(AuthMode.SIGV4).withIdentities(identities));
        sqs = SqsClient.builder().endpointOverride(URI.create(server.endpoint())).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(ROOT_A, ROOT_A_SECRET)))
                .httpClient(UrlConnectionHttpClient.create()).build();
        browser = Chromium.start();
        wait = new WebDriverWait(browser, WAIT);
        String wanted = System.getProperty("console.screenshots");
        screenshots = wanted != null ? repositoryRoot().resolve(wanted) : Path.of("target", "console-screenshots");
    }

    @AfterAll
    void stop() {
        if (browser != null) {
            browser.quit();
        }
        if (sqs != null) {
            sqs.close();
        }
        if (server != null) {
            server.close();
        }
    }

    private static Path repositoryRoot() {
        Path here = Path.of("").toAbsolutePath();
        return Files.exists(here.resolve("docs")) ? here : here.getParent();
    }

    private void screenshot(String name) throws Exception {
        Files.createDirectories(screenshots);
        File shot = ((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE);
        Files.copy(shot.toPath(), screenshots.resolve(name + ".png"), StandardCopyOption.REPLACE_EXISTING);
    }

    private void open(String hash) {
        browser.get(server.endpoint() + "/console/" + hash);
        awaitReady();
    }

    private void awaitReady() {
        wait.until(ExpectedConditions.attributeToBe(By.id("view"), "data-ready", "true"));
    }

    private void click(String id) {
        wait.until(ExpectedConditions.elementToBeClickable(By.id(id))).click();
    }

    private void type(String id, String text) {
        WebElement e = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id(id)));
        e.clear();
        e.sendKeys(text);
    }

    private Object js(String script, Object... args) {
        return ((JavascriptExecutor) browser).executeScript(script, args);
    }

    private String url(String name) {
        return sqs.getQueueUrl(b -> b.queueName(name)).queueUrl();
    }

    private String count(String name) {
        return sqs.getQueueAttributes(b -> b.queueUrl(url(name)).attributeNamesWithStrings("ApproximateNumberOfMessages"))
                .attributesAsStrings().get("ApproximateNumberOfMessages");
    }

    private void signIn(String keyId, String secret) {
        type("access-key-id", keyId);
        type("secret-access-key", secret);
        click("sign-in-submit");
    }

    @Test
    @Order(1)
    void unsignedConsoleIsAskedToSignInAndAWrongSecretIsRefused() throws Exception {
        open("");
        WebElement error = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("error")));
        assertThat(error.getText()).startsWith("AccessDeniedException: Access to the resource"); // what SQS answers
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("sign-in-dialog")));
        assertThat(browser.findElements(By.cssSelector("tr[data-queue]"))).isEmpty();

        signIn(ROOT_A, "not-the-secret/0123456789abcdefghijklmnop");
        WebElement refused = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("sign-in-error")));
        assertThat(refused.getText()).startsWith("InvalidSignatureException: The request signature we calculated does not match");
        assertThat(js("return sessionStorage.getItem('hikyaku.console.credentials')")).isNull();
        screenshot("sign-in-refused");

        signIn("AKIANOSUCHKEY0000000", "whatever/0123456789abcdefghijklmnopqrstu");
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("sign-in-error"), "UnrecognizedClientException"));
        assertThat(js("return sessionStorage.getItem('hikyaku.console.credentials')")).isNull();
    }

    @Test
    @Order(2)
    void signsInAndSeesOnlyItsAccountsQueues() {
        signIn(ROOT_A, ROOT_A_SECRET);
        wait.until(ExpectedConditions.invisibilityOfElementLocated(By.id("sign-in-dialog")));
        awaitReady();
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("who"), ROOT_A));
        wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("tr[data-queue='orders']")));
        assertThat(browser.findElement(By.id("error")).isDisplayed()).isFalse();
        // The secret stays in this tab's sessionStorage, never in localStorage or cookies.
        assertThat(String.valueOf(js("return sessionStorage.getItem('hikyaku.console.credentials')"))).contains(ROOT_A);
        assertThat(String.valueOf(js("return JSON.stringify(localStorage) + document.cookie"))).doesNotContain(ROOT_A_SECRET);
    }

    @Test
    @Order(3)
    void sendsPeeksAndPurgesAsThePrincipal() {
        open("#/queue/orders/messages");
        type("send-body", "signed hello");
        click("send");
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("send-result"), "Sent "));
        assertThat(count("orders")).isEqualTo("1");
        click("peek");
        WebElement peeked = wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#peek-results tr.message")));
        assertThat(peeked.findElement(By.className("body")).getText()).isEqualTo("signed hello");
        assertThat(peeked.findElement(By.className("receive-count")).getText()).isEqualTo("0");
        click("purge");
        click("confirm-ok");
        wait.until(ExpectedConditions.presenceOfElementLocated(By.id("purged")));
        assertThat(count("orders")).isEqualTo("0");
    }

    @Test
    @Order(4)
    void redrivesAsThePrincipal() {
        sqs.createQueue(b -> b.queueName("orders-dlq"));
        String dlqArn = sqs.getQueueAttributes(b -> b.queueUrl(url("orders-dlq")).attributeNames(QueueAttributeName.QUEUE_ARN))
                .attributes().get(QueueAttributeName.QUEUE_ARN);
        assertThat(dlqArn).contains(":" + A + ":");
        sqs.setQueueAttributes(b -> b.queueUrl(url("orders")).attributesWithStrings(Map.of(
                "RedrivePolicy", "{\"deadLetterTargetArn\":\"" + dlqArn + "\",\"maxReceiveCount\":\"1\"}")));
        for (int i = 0; i < 2; i++) {
            int n = i;
            sqs.sendMessage(b -> b.queueUrl(url("orders")).messageBody("job " + n));
        }
        assertThat(sqs.receiveMessage(b -> b.queueUrl(url("orders")).maxNumberOfMessages(10).visibilityTimeout(0)).messages()).hasSize(2);
        assertThat(sqs.receiveMessage(b -> b.queueUrl(url("orders")).maxNumberOfMessages(10)).messages()).isEmpty();
        assertThat(count("orders-dlq")).isEqualTo("2");

        open("#/queue/orders-dlq/redrive");
        click("start-redrive");
        WebElement task = wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("tr.move-task[data-status='COMPLETED']")));
        assertThat(task.findElement(By.className("moved")).getText()).isEqualTo("2");
        assertThat(count("orders")).isEqualTo("2");
        assertThat(count("orders-dlq")).isEqualTo("0");
    }

    /** Known traffic in a minute that has ended shows in the charts, fetched with signed GetMetricData. */
    @Test
    @Order(5)
    void chartsShowTheMetricsOfKnownTraffic() throws Exception {
        sqs.createQueue(b -> b.queueName("charted"));
        String q = url("charted");
        for (int i = 0; i < 5; i++) {
            int n = i;
            sqs.sendMessage(b -> b.queueUrl(q).messageBody("m" + n));
        }
        var got = sqs.receiveMessage(b -> b.queueUrl(q).maxNumberOfMessages(3).visibilityTimeout(600)).messages();
        assertThat(got).hasSize(3);
        sqs.deleteMessage(b -> b.queueUrl(q).receiptHandle(got.get(0).receiptHandle()));
        sqs.deleteMessage(b -> b.queueUrl(q).receiptHandle(got.get(1).receiptHandle()));
        // Empty receives: on a second, empty queue (the one above still has visible messages).
        sqs.createQueue(b -> b.queueName("charted-empty"));
        for (int i = 0; i < 4; i++) {
            sqs.receiveMessage(b -> b.queueUrl(url("charted-empty")).waitTimeSeconds(0));
        }
        clock.advance(Duration.ofSeconds(61)); // the traffic's minute has ended on the server's clock
        server.cloudWatch().sampleNow();

        open("#/queue/charted");
        wait.until(ExpectedConditions.attributeToBe(By.id("charts"), "data-loaded", "true"));
        screenshot("queue-metrics");
        assertThat(chart("NumberOfMessagesSent").getAttribute("data-total")).isEqualTo("5");
        assertThat(chart("NumberOfMessagesReceived").getAttribute("data-total")).isEqualTo("3");
        assertThat(chart("NumberOfMessagesDeleted").getAttribute("data-total")).isEqualTo("2");
        assertThat(chart("ApproximateNumberOfMessagesVisible").getAttribute("data-max")).isEqualTo("2");
        assertThat(Integer.parseInt(chart("ApproximateAgeOfOldestMessage").getAttribute("data-points"))).isPositive();
        assertThat(chart("NumberOfEmptyReceives").getAttribute("data-total")).isEqualTo("0");
        assertThat(chart("NumberOfMessagesSent").findElements(By.cssSelector("svg circle"))).isNotEmpty();
        assertThat(chart("NumberOfMessagesSent").getAttribute("data-stat")).isEqualTo("Sum");

        open("#/queue/charted-empty");
        wait.until(ExpectedConditions.attributeToBe(By.id("charts"), "data-loaded", "true"));
        assertThat(chart("NumberOfEmptyReceives").getAttribute("data-total")).isEqualTo("4");
        assertThat(chart("NumberOfMessagesSent").getAttribute("data-total")).isEqualTo("0");
    }

    private WebElement chart(String metric) {
        return browser.findElement(By.cssSelector("#charts figure.chart[data-metric='" + metric + "']"));
    }

    /** Another account's principal signs in and sees none of this account's queues, nor their metrics. */
    @Test
    @Order(6)
    void anotherAccountSeesNothingOfThisOne() {
        click("sign-out-button");
        awaitReady();
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("sign-in-dialog")));
        signIn(ROOT_B, ROOT_B_SECRET);
        wait.until(ExpectedConditions.invisibilityOfElementLocated(By.id("sign-in-dialog")));
        awaitReady();
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("who"), ROOT_B));
        open(""); // the queue list (a reload keeps the tab's sign-in)
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("who"), ROOT_B));
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("queue-table"), "No queues yet."));
        open("#/queue/charted");
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("error"), "QueueDoesNotExist"));
        Object sent = ((JavascriptExecutor) browser).executeAsyncScript(
                "const done = arguments[arguments.length - 1];"
                        + "Charts.load('charted', 3600).then(d => done(d.series.map(s => s.points.length).reduce((a, b) => a + b, 0)),"
                        + " e => done('error ' + e.type));");
        assertThat(sent).isEqualTo(0L); // account B's metric history has no queue "charted"
    }

    /** A user allowed only sqs:SendMessage on one queue opens it by name (no ListQueues, no GetQueueUrl) and sends. */
    @Test
    @Order(7)
    void aSendOnlyUserOpensItsQueueByNameAndSends() {
        click("sign-out-button");
        awaitReady();
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("sign-in-dialog")));
        signIn("AKIASENDER0000000001", "sender/secret/0123456789abcdefghijklmno");
        wait.until(ExpectedConditions.invisibilityOfElementLocated(By.id("sign-in-dialog")));
        awaitReady();
        open(""); // the queue list (ListQueues shows nothing of use to this user): it opens its queue by name
        String before = count("orders");
        type("open-queue-input", "orders");
        click("open-queue");
        awaitReady();
        WebElement denied = wait.until(ExpectedConditions.presenceOfElementLocated(By.id("attributes-denied")));
        assertThat(denied.getText()).contains("/" + A + "/orders").contains("send a message");
        click("go-send");
        awaitReady();
        type("send-body", "from the send-only user");
        click("send");
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("send-result"), "Sent "));
        assertThat(Integer.parseInt(count("orders"))).isEqualTo(Integer.parseInt(before) + 1);
    }
}
