package io.hikyaku.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.cluster.StuckFollowerWatchdog.Follower;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The stuck-follower decision on a fake clock: rounds once a second, as the node runs it. */
class StuckFollowerWatchdogTest {

    private final StuckFollowerWatchdog dog = new StuckFollowerWatchdog();

    /** Runs rounds from {@code fromMs} every second for {@code seconds}; the first transfer target, if any. */
    private Optional<String> rounds(long fromMs, int seconds, long applied, List<Follower> followers) {
        for (int s = 0; s <= seconds; s++) {
            Optional<String> t = dog.round(fromMs + s * 1000L, applied, followers);
            if (t.isPresent()) {
                return t;
            }
        }
        return Optional.empty();
    }

    @Test
    void anAnsweringFollowerWhoseMatchIndexStaysBehindHandsLeadershipToTheOther() {
        List<Follower> f = List.of(new Follower("n2", -1, 100), new Follower("n3", 500, 50));
        assertThat(rounds(0, 9, 500, f)).as("not yet: under 10 s").isEmpty();
        assertThat(dog.round(10_000, 500, f)).contains("n3");
    }

    /** Behind the leader's log start it receives a snapshot: its match index moves only at the end. */
    @Test
    void aFollowerThatNeedsASnapshotGetsTimeForTheInstall() {
        List<Follower> f = List.of(new Follower("n2", 40, 100), new Follower("n3", 5_000, 50));
        for (int s = 0; s < 119; s++) {
            assertThat(dog.round(s * 1000L, 5_000, 4_097, f)).as("installing, second " + s).isEmpty();
        }
        assertThat(dog.round(120_000, 5_000, 4_097, f)).contains("n3");
    }

    @Test
    void aFollowerThatIsCatchingUpIsLeftAlone() {
        for (int s = 0; s < 60; s++) {
            List<Follower> f = List.of(new Follower("n2", s * 10L, 100), new Follower("n3", 10_000, 50));
            assertThat(dog.round(s * 1000L, 10_000, f)).isEmpty();
        }
    }

    @Test
    void aFollowerThatDoesNotAnswerIsDownNotStuck() {
        List<Follower> f = List.of(new Follower("n2", 3, 5_000), new Follower("n3", 500, 50));
        assertThat(rounds(0, 60, 500, f)).isEmpty();
    }

    @Test
    void anUpToDateIdleClusterNeverTransfers() {
        List<Follower> f = List.of(new Follower("n2", 500, 100), new Follower("n3", 500, 50));
        assertThat(rounds(0, 120, 500, f)).isEmpty();
    }

    @Test
    void noOtherAnsweringFollowerMeansNoTransfer() {
        List<Follower> f = List.of(new Follower("n2", -1, 100), new Follower("n3", 500, 9_000));
        assertThat(rounds(0, 60, 500, f)).isEmpty();
    }

    @Test
    void transfersAreAtLeastThirtySecondsApart() {
        List<Follower> f = List.of(new Follower("n2", -1, 100), new Follower("n3", 500, 50));
        assertThat(rounds(0, 10, 500, f)).contains("n3");
        assertThat(rounds(11_000, 18, 500, f)).as("within the back-off").isEmpty();
        assertThat(rounds(30_000, 15, 500, f)).contains("n3");
    }

    @Test
    void theMostAdvancedAnsweringFollowerIsChosen() {
        List<Follower> f = List.of(new Follower("n2", -1, 100), new Follower("n3", 400, 50),
                new Follower("n4", 500, 20), new Follower("n5", 600, 8_000));
        assertThat(rounds(0, 10, 600, f)).as("n2, n3 and n4 are all stuck behind 600; n5 does not answer").isEmpty();
        assertThat(new StuckFollowerWatchdog().round(0, 500, f)).isEmpty();
        StuckFollowerWatchdog fresh = new StuckFollowerWatchdog();
        Optional<String> t = Optional.empty();
        for (int s = 0; s <= 10 && t.isEmpty(); s++) {
            t = fresh.round(s * 1000L, 500, f);
        }
        assertThat(t).as("n2 and n3 stuck behind 500: the up-to-date n4 takes over").contains("n4");
    }

    @Test
    void losingLeadershipForgetsWhatWasSeen() {
        List<Follower> f = List.of(new Follower("n2", -1, 100), new Follower("n3", 500, 50));
        assertThat(rounds(0, 8, 500, f)).isEmpty();
        dog.reset();
        assertThat(rounds(9_000, 8, 500, f)).as("the clock restarts after a reset").isEmpty();
        assertThat(dog.round(19_000, 500, f)).contains("n3");
    }
}
