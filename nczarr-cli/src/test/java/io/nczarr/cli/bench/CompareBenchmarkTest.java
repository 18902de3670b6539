package io.nczarr.cli.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import ucar.ma2.Array;
import ucar.ma2.DataType;

/**
 * The digest bench/compare.sh compares across readers must be the one the anchors compute:
 * expected values from numpy ({@code hashlib.sha256(np.array(..., '<f4').tobytes())}).
 */
class CompareBenchmarkTest {

    @Test
    void floatDigestIsNumpyLittleEndianCOrder() throws Exception {
        // np.array([[1.5, -2.0], [3.25, np.float32(1e-3)]], '<f4')
        Array a = Array.factory(DataType.FLOAT, new int[] {2, 2}, new float[] {1.5f, -2.0f, 3.25f, 1e-3f});
        assertEquals("78b47e7c7cf6e58d549d28c366eaeb234145cd871fb193f00606e1a2bc9ef036", OursReads.sha256(a));
    }

    @Test
    void doubleDigestIsNumpyLittleEndian() throws Exception {
        // np.array([0.1, -7.0, 1e300], '<f8')
        Array a = Array.factory(DataType.DOUBLE, new int[] {3}, new double[] {0.1, -7.0, 1e300});
        assertEquals("1709671b10fa53363ba8eb9baaeffe06f8a5c6fc9ac9a84c1c65e65fb8463458", OursReads.sha256(a));
    }

    @Test
    void otherTypesAreRefused() {
        Array a = Array.factory(DataType.INT, new int[] {1}, new int[] {1});
        assertThrows(IllegalArgumentException.class, () -> OursReads.sha256(a));
    }
}
