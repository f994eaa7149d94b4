package io.mech.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class StatsTest {

    @Test
    void nineLossesInTenRoundsAreTwoTailsOfElevenIn1024() {
        final List<Double> samples = List.of(1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, -1.0);
        assertEquals(2.0 * (1 + 10) / 1024, Stats.signTestP(samples), 1e-12);
    }

    @Test
    void zerosAreLeftOutOfTheSignTest() {
        assertEquals(2.0 / 8, Stats.signTestP(List.of(1.0, 2.0, 3.0, 0.0, 0.0)), 1e-12);
        assertEquals(1, Stats.signTestP(List.of(0.0, 0.0)));
    }

    @Test
    void holmMultipliesTheKthSmallestByTheRowsLeftAndNeverLetsAnAdjustedValueFall() {
        // sorted: 0.005 x 4, 0.01 x 3, 0.03 x 2, then 0.04 x 1 = 0.04 raised to the 0.06 before it
        final double[] adjusted = Stats.holm(new double[] {0.01, 0.04, 0.03, 0.005});
        assertArrayEquals(new double[] {0.03, 0.06, 0.06, 0.02}, adjusted, 1e-12);
    }

    @Test
    void holmCapsAtOne() {
        assertArrayEquals(new double[] {1, 1}, Stats.holm(new double[] {0.6, 0.9}), 1e-12);
    }
}
