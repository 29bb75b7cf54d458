package io.hikyaku.it.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.server.HikyakuServer;
import io.hikyaku.server.ServerConfig;
import io.hikyaku.server.StorageMode;
import java.io.File;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
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
import software.amazon.awssdk.auth.signer.Aws4Signer;
import software.amazon.awssdk.auth.signer.params.Aws4SignerParams;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.SdkHttpFullRequest;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * The web console end to end: the real server (system clock, memory storage, ephemeral port) and
 * Debian's headless Chromium driven by Selenium, checked against the state the Java SDK v2 sees.
 * Without /usr/bin/chromium and /usr/bin/chromedriver the test fails when CI=true and is skipped,
 * saying why, elsewhere. Screenshots of the main pages go to target/console-screenshots/, or with
 * {@code -Dconsole.screenshots=docs/console} to the documentation's copies.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ConsoleBrowserTest {

    private static final Duration WAIT = Duration.ofSeconds(15);

    private HikyakuServer server;
    private SqsClient sqs;
    private ChromeDriver browser;
    private WebDriverWait wait;
    private Path screenshots;

    @BeforeAll
    void start() {
        Chromium.assumePresent("ConsoleBrowserTest");
        server = HikyakuServer.start(ServerConfig.defaults().withPort(0).withStorage(StorageMode.MEMORY));
        sqs = client("test");
        browser = Chromium.start();
        wait = new WebDriverWait(browser, WAIT);
        // The documentation's screenshots are refreshed on request only (-Dconsole.screenshots=docs/console),
        // so an ordinary run leaves the working tree untouched.
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

    private SqsClient client(String accessKey) {
        return SqsClient.builder().endpointOverride(URI.create(server.endpoint())).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKey, "secret")))
                .httpClient(UrlConnectionHttpClient.create()).build();
    }

    /** The repository root (tests run in integration-tests/). */
    private static Path repositoryRoot() {
        Path here = Path.of("").toAbsolutePath();
        return Files.exists(here.resolve("docs")) ? here : here.getParent();
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

    private void screenshot(String name) throws Exception {
        Files.createDirectories(screenshots);
        File shot = ((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE);
        Files.copy(shot.toPath(), screenshots.resolve(name + ".png"), StandardCopyOption.REPLACE_EXISTING);
    }

    private String url(String name) {
        return sqs.getQueueUrl(b -> b.queueName(name)).queueUrl();
    }

    private Map<String, String> counts(String name) {
        return sqs.getQueueAttributes(b -> b.queueUrl(url(name)).attributeNamesWithStrings(
                "ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible")).attributesAsStrings();
    }

    @Test
    @Order(1)
    void listsQueuesAndCreatesOne() throws Exception {
        sqs.createQueue(b -> b.queueName("orders"));
        sqs.sendMessage(b -> b.queueUrl(url("orders")).messageBody("first order"));
        browser.get(server.endpoint() + "/console"); // redirected to /console/
        awaitReady();
        assertThat(browser.getCurrentUrl()).endsWith("/console/");
        WebElement row = wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("tr[data-queue='orders']")));
        wait.until(ExpectedConditions.textToBePresentInElement(row.findElements(By.tagName("td")).get(2), "1"));

        type("new-queue-name", "console-q");
        click("create-queue");
        awaitReady();
        wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("tr[data-queue='console-q']")));
        assertThat(url("console-q")).endsWith("/console-q");
        screenshot("queues");
    }

    @Test
    @Order(2)
    void sendsAndPeeksWithoutChangingTheMessage() throws Exception {
        open("#/queue/console-q/messages");
        type("send-body", "hello from the console");
        browser.findElement(By.cssSelector(".attribute-row .attr-name")).sendKeys("color");
        browser.findElement(By.cssSelector(".attribute-row .attr-value")).sendKeys("blue");
        click("send");
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("send-result"), "Sent "));

        click("peek");
        WebElement peeked = wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#peek-results tr.message")));
        assertThat(peeked.findElement(By.className("body")).getText()).isEqualTo("hello from the console");
        assertThat(peeked.getText()).contains("color = blue");
        assertThat(peeked.findElement(By.className("receive-count")).getText()).isEqualTo("0");
        click("peek"); // peeking again changes nothing either
        wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#peek-results tr.message")));
        screenshot("messages");

        // The SDK's view: still visible, never received.
        assertThat(counts("console-q")).containsEntry("ApproximateNumberOfMessages", "1")
                .containsEntry("ApproximateNumberOfMessagesNotVisible", "0");
        List<Message> got = sqs.receiveMessage(b -> b.queueUrl(url("console-q")).visibilityTimeout(0)
                .messageSystemAttributeNames(MessageSystemAttributeName.APPROXIMATE_RECEIVE_COUNT)
                .messageAttributeNames("All")).messages();
        assertThat(got).hasSize(1);
        assertThat(got.get(0).body()).isEqualTo("hello from the console");
        assertThat(got.get(0).attributes()).containsEntry(MessageSystemAttributeName.APPROXIMATE_RECEIVE_COUNT, "1");
        assertThat(got.get(0).messageAttributes().get("color").stringValue()).isEqualTo("blue");
    }

    @Test
    @Order(3)
    void purgesOnlyAfterConfirmation() throws Exception {
        open("#/queue/console-q/messages");
        click("purge");
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("confirm-dialog")));
        screenshot("purge-confirmation");
        click("confirm-cancel");
        assertThat(counts("console-q")).containsEntry("ApproximateNumberOfMessages", "1");

        click("purge");
        click("confirm-ok");
        wait.until(ExpectedConditions.presenceOfElementLocated(By.id("purged")));
        assertThat(counts("console-q")).containsEntry("ApproximateNumberOfMessages", "0")
                .containsEntry("ApproximateNumberOfMessagesNotVisible", "0");
    }

    @Test
    @Order(4)
    void editsAttributesAndTags() throws Exception {
        open("#/queue/console-q");
        WebElement vt = browser.findElement(By.cssSelector("[data-attribute='VisibilityTimeout']"));
        vt.clear();
        vt.sendKeys("45");
        click("save-attributes");
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("attributes-saved"), "VisibilityTimeout"));
        type("tag-key", "team");
        type("tag-value", "payments");
        click("add-tag");
        awaitReady();
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("tags"), "payments"));
        assertThat(sqs.getQueueAttributes(b -> b.queueUrl(url("console-q")).attributeNames(QueueAttributeName.VISIBILITY_TIMEOUT))
                .attributes()).containsEntry(QueueAttributeName.VISIBILITY_TIMEOUT, "45");
        assertThat(sqs.listQueueTags(b -> b.queueUrl(url("console-q"))).tags()).containsEntry("team", "payments");
        screenshot("queue-details");
    }

    @Test
    @Order(5)
    void redrivesADeadLetterQueueToCompletion() throws Exception {
        sqs.createQueue(b -> b.queueName("work-dlq"));
        String dlqArn = sqs.getQueueAttributes(b -> b.queueUrl(url("work-dlq")).attributeNames(QueueAttributeName.QUEUE_ARN))
                .attributes().get(QueueAttributeName.QUEUE_ARN);
        sqs.createQueue(b -> b.queueName("work").attributesWithStrings(Map.of(
                "RedrivePolicy", "{\"deadLetterTargetArn\":\"" + dlqArn + "\",\"maxReceiveCount\":\"1\"}")));
        for (int i = 0; i < 3; i++) {
            int n = i;
            sqs.sendMessage(b -> b.queueUrl(url("work")).messageBody("job " + n));
        }
        assertThat(sqs.receiveMessage(b -> b.queueUrl(url("work")).maxNumberOfMessages(10).visibilityTimeout(0)).messages()).hasSize(3);
        assertThat(sqs.receiveMessage(b -> b.queueUrl(url("work")).maxNumberOfMessages(10)).messages()).isEmpty(); // all moved
        assertThat(counts("work-dlq")).containsEntry("ApproximateNumberOfMessages", "3");

        open("#/queue/work-dlq");
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("redrive-summary"), "work"));
        click("tab-redrive");
        awaitReady();
        click("start-redrive");
        WebElement task = wait.until(ExpectedConditions.presenceOfElementLocated(
                By.cssSelector("tr.move-task[data-status='COMPLETED']")));
        assertThat(task.findElement(By.className("moved")).getText()).isEqualTo("3");
        wait.until(ExpectedConditions.textToBe(By.id("redrive-available"), "0")); // no longer the 3 of page load
        screenshot("redrive");
        assertThat(counts("work")).containsEntry("ApproximateNumberOfMessages", "3");
        assertThat(counts("work-dlq")).containsEntry("ApproximateNumberOfMessages", "0");
    }

    @Test
    @Order(6)
    void signsInAndSignsRequestsAsThatPrincipal() throws Exception {
        open("");
        click("sign-in-button");
        type("access-key-id", "111111111111");
        type("secret-access-key", "not-used-without-auth");
        click("sign-in-submit");
        awaitReady();
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("who"), "111111111111"));
        assertThat(browser.findElements(By.cssSelector("tr[data-queue='orders']"))).isEmpty(); // another account
        type("new-queue-name", "other-account-q");
        click("create-queue");
        awaitReady();
        wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("tr[data-queue='other-account-q']")));
        try (SqsClient other = client("111111111111")) {
            assertThat(other.listQueues().queueUrls()).anyMatch(u -> u.endsWith("/111111111111/other-account-q"));
        }
        assertThat(sqs.listQueues().queueUrls()).noneMatch(u -> u.endsWith("/other-account-q"));
        Object stored = ((JavascriptExecutor) browser).executeScript("return sessionStorage.getItem('hikyaku.console.credentials')");
        assertThat(String.valueOf(stored)).contains("111111111111");
        Object persistent = ((JavascriptExecutor) browser).executeScript("return JSON.stringify(localStorage)");
        assertThat(String.valueOf(persistent)).doesNotContain("111111111111");
        click("sign-out-button");
        awaitReady();
        wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("tr[data-queue='orders']")));
    }

    /** The browser's SigV4 signature equals the AWS SDK's for the same request, key and time. */
    @Test
    @Order(7)
    void browserSignatureMatchesTheSdks() {
        open("");
        String host = URI.create(server.endpoint()).getAuthority();
        String body = "{\"QueueName\":\"signed\"}";
        Instant at = Instant.parse("2026-01-02T03:04:05Z");
        Object js = ((JavascriptExecutor) browser).executeAsyncScript(
                "const done = arguments[arguments.length - 1];"
                        + "SigV4.sign({accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',"
                        + " region: 'eu-west-1', service: 'sqs', host: arguments[0], path: '/',"
                        + " headers: {'content-type': 'application/x-amz-json-1.0', 'x-amz-target': 'AmazonSQS.GetQueueUrl'},"
                        + " body: arguments[1], date: new Date(arguments[2])}).then(h => done(h.authorization), e => done('error ' + e));",
                host, body, at.toEpochMilli());
        SdkHttpFullRequest request = SdkHttpFullRequest.builder().method(SdkHttpMethod.POST)
                .uri(URI.create(server.endpoint() + "/"))
                .putHeader("Content-Type", "application/x-amz-json-1.0")
                .putHeader("X-Amz-Target", "AmazonSQS.GetQueueUrl")
                .contentStreamProvider(RequestBody.fromString(body).contentStreamProvider())
                .build();
        @SuppressWarnings("deprecation")
        SdkHttpFullRequest signed = Aws4Signer.create().sign(request, Aws4SignerParams.builder()
                .awsCredentials(AwsBasicCredentials.create("AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"))
                .signingName("sqs").signingRegion(Region.EU_WEST_1)
                .signingClockOverride(Clock.fixed(at, ZoneOffset.UTC)).build());
        assertThat(js).isEqualTo(signed.firstMatchingHeader("Authorization").orElseThrow());
    }

    /** A FIFO send without a group id is stopped in the page with a clear message; nothing reaches the queue. */
    @Test
    @Order(8)
    void fifoSendNeedsAGroupIdAndADedupIdWithoutContentDedup() {
        sqs.createQueue(b -> b.queueName("jobs.fifo").attributesWithStrings(Map.of("FifoQueue", "true")));
        open("#/queue/jobs.fifo/messages");
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("send-dedup-hint"), "deduplication is off"));
        type("send-body", "fifo body");
        click("send");
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("error"), "A FIFO queue needs a message group id."));
        type("send-group", "g1");
        click("send");
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("error"), "give a deduplication id"));
        assertThat(counts("jobs.fifo")).containsEntry("ApproximateNumberOfMessages", "0");
        type("send-dedup", "d1");
        click("send");
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("send-result"), "Sent "));
        assertThat(counts("jobs.fifo")).containsEntry("ApproximateNumberOfMessages", "1");
    }

    /** Every chart has the same range and the same HH:MM time axis; the page has an inline icon (no /favicon.ico). */
    @Test
    @Order(9)
    void chartsShareOneRangeWithATimeAxisAndThePageHasAnIcon() throws Exception {
        open("#/queue/orders");
        wait.until(ExpectedConditions.attributeToBe(By.id("charts"), "data-loaded", "true"));
        List<WebElement> charts = browser.findElements(By.cssSelector("#charts figure.chart"));
        assertThat(charts).hasSize(6);
        String from = browser.findElement(By.id("charts")).getAttribute("data-from");
        for (WebElement c : charts) {
            assertThat(c.getAttribute("data-from")).isEqualTo(from);
            assertThat(c.getAttribute("data-ticks")).isEqualTo(charts.get(0).getAttribute("data-ticks")).matches("(\\d\\d:\\d\\d ?){4,5}");
            assertThat(c.findElements(By.cssSelector("svg .time-axis text.tick"))).hasSizeGreaterThanOrEqualTo(4);
        }
        long to = Long.parseLong(browser.findElement(By.id("charts")).getAttribute("data-to"));
        assertThat(to - Long.parseLong(from)).isEqualTo(3600 + 60);
        screenshot("queue-metrics-axis");
        assertThat(browser.findElement(By.cssSelector("link[rel='icon']")).getAttribute("href")).startsWith("data:image/svg+xml,");
    }

    /** The queue page lists the alarms that watch the queue (single-metric or metric math) with their state. */
    @Test
    @Order(10)
    void theQueuePageShowsTheAlarmsOnTheQueue() throws Exception {
        try (software.amazon.awssdk.services.cloudwatch.CloudWatchClient cw = software.amazon.awssdk.services.cloudwatch.CloudWatchClient.builder()
                .endpointOverride(URI.create(server.endpoint())).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "secret")))
                .httpClient(UrlConnectionHttpClient.create()).build()) {
            cw.putMetricAlarm(b -> b.alarmName("orders-depth").namespace("AWS/SQS").metricName("ApproximateNumberOfMessagesVisible")
                    .dimensions(d -> d.name("QueueName").value("orders")).statistic("Maximum").period(60).evaluationPeriods(1)
                    .threshold(100.0).comparisonOperator("GreaterThanThreshold"));
            cw.putMetricAlarm(b -> b.alarmName("other-depth").namespace("AWS/SQS").metricName("ApproximateNumberOfMessagesVisible")
                    .dimensions(d -> d.name("QueueName").value("jobs.fifo")).statistic("Maximum").period(60).evaluationPeriods(1)
                    .threshold(100.0).comparisonOperator("GreaterThanThreshold"));
            cw.setAlarmState(b -> b.alarmName("orders-depth").stateValue("ALARM").stateReason("a drill"));
        }
        open("#/queue/orders");
        wait.until(ExpectedConditions.attributeToBe(By.id("alarms"), "data-loaded", "true"));
        click("refresh-alarms"); // the page may have been loaded before the alarms existed (same URL as the test before)
        wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#alarms tr[data-alarm]")));
        List<WebElement> rows = browser.findElements(By.cssSelector("#alarms tr[data-alarm]"));
        assertThat(rows).extracting(r -> r.getAttribute("data-alarm")).containsExactly("orders-depth");
        assertThat(rows.get(0).getAttribute("data-state")).isEqualTo("ALARM");
        assertThat(rows.get(0).getText()).contains("a drill");
        screenshot("queue-alarms");
    }

    /**
     * The Schedules page lists the account's schedules (a signed REST GET, as the SDKs send it) with group, state
     * and target queue, and shows one schedule's details; the browser's signature of a GET with a query string
     * matches the SDK's.
     */
    @Test
    @Order(11)
    void theSchedulesPageListsSchedulesAndShowsOne() throws Exception {
        sqs.createQueue(b -> b.queueName("reminders"));
        java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
        String body = "{\"ScheduleExpression\":\"cron(0 9 3 1 ? 2099)\",\"ScheduleExpressionTimezone\":\"Europe/Berlin\","
                + "\"FlexibleTimeWindow\":{\"Mode\":\"OFF\"},\"State\":\"DISABLED\",\"Target\":{\"Arn\":\"arn:aws:sqs:us-east-1:000000000000:reminders\","
                + "\"RoleArn\":\"arn:aws:iam::000000000000:role/scheduler\",\"Input\":\"new year\"}}";
        var created = http.send(java.net.http.HttpRequest.newBuilder(URI.create(server.endpoint() + "/schedules/new-year"))
                .header("Content-Type", "application/json").POST(java.net.http.HttpRequest.BodyPublishers.ofString(body)).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        assertThat(created.statusCode()).as(created.body()).isEqualTo(200);
        open("#/schedules");
        wait.until(ExpectedConditions.attributeToBe(By.id("schedule-table"), "data-loaded", "true"));
        WebElement row = browser.findElement(By.cssSelector("#schedule-table tr[data-schedule='new-year']"));
        assertThat(row.getAttribute("data-group")).isEqualTo("default");
        assertThat(row.getAttribute("data-state")).isEqualTo("DISABLED");
        assertThat(row.getText()).contains("reminders");
        row.findElement(By.cssSelector("a.schedule-name")).click();
        WebElement details = wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#schedule-details[data-schedule='new-year']")));
        assertThat(details.getText()).contains("cron(0 9 3 1 ? 2099)", "Europe/Berlin", "new year");
        screenshot("schedules");

        String host = URI.create(server.endpoint()).getAuthority();
        Instant at = Instant.parse("2026-01-02T03:04:05Z");
        Object js = ((JavascriptExecutor) browser).executeAsyncScript(
                "const done = arguments[arguments.length - 1];"
                        + "SigV4.sign({accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',"
                        + " region: 'eu-west-1', service: 'scheduler', host: arguments[0], path: '/schedules',"
                        + " query: 'MaxResults=100&NextToken=abc', method: 'GET', headers: {}, body: '',"
                        + " date: new Date(arguments[1])}).then(h => done(h.authorization), e => done('error ' + e));",
                host, at.toEpochMilli());
        SdkHttpFullRequest request = SdkHttpFullRequest.builder().method(SdkHttpMethod.GET)
                .uri(URI.create(server.endpoint() + "/schedules?MaxResults=100&NextToken=abc")).build();
        @SuppressWarnings("deprecation")
        SdkHttpFullRequest signed = Aws4Signer.create().sign(request, Aws4SignerParams.builder()
                .awsCredentials(AwsBasicCredentials.create("AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"))
                .signingName("scheduler").signingRegion(Region.EU_WEST_1)
                .signingClockOverride(Clock.fixed(at, ZoneOffset.UTC)).build());
        assertThat(js).isEqualTo(signed.firstMatchingHeader("Authorization").orElseThrow());
    }
}
