package dev.shuttle.wire.hpack;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class DynamicTableTest {

    @Test
    void emptyTableHoldsNoArrays() {
        assertThat(new DynamicTable(4096).capacity()).isZero();
    }

    @Test
    void storageGrowsWithWhatIsStoredNotWithTheMaximum() {
        DynamicTable table = new DynamicTable(4096);

        table.add("a", "b");

        assertThat(table.capacity()).isLessThanOrEqualTo(64 + 4 * 5 * Integer.BYTES);
    }

    @Test
    void evictsOldestFirstAndCountsThirtyTwoPerEntry() {
        DynamicTable table = new DynamicTable(100);
        table.add("aaaa", "1111");
        table.add("bbbb", "2222");

        assertThat(table.size()).isEqualTo(80);
        table.add("cccc", "3333");

        assertThat(table.length()).isEqualTo(2);
        assertThat(table.name(0)).isEqualTo("cccc");
        assertThat(table.name(1)).isEqualTo("bbbb");
        assertThat(table.size()).isEqualTo(80);
    }

    @Test
    void entriesThatWrapAroundTheRingReadBackWhole() {
        DynamicTable table = new DynamicTable(32 * 3 + 60);
        for (int i = 0; i < 50; i++) {
            String name = "name-" + i;
            String value = "value-" + "x".repeat(i % 7);
            byte[] nameOctets = name.getBytes(StandardCharsets.ISO_8859_1);
            byte[] valueOctets = value.getBytes(StandardCharsets.ISO_8859_1);
            table.add(nameOctets, 0, nameOctets.length, valueOctets, 0, valueOctets.length);

            assertThat(table.name(0)).isEqualTo(name);
            assertThat(table.value(0)).isEqualTo(value);
            assertThat(table.indexOf(name, value)).isZero();
            assertThat(table.indexOfName(name)).isZero();
            byte[] copied = new byte[nameOctets.length];
            table.copyName(0, copied, 0);
            assertThat(copied).isEqualTo(nameOctets);
        }
        assertThat(table.capacity()).isLessThanOrEqualTo(256 + 8 * 5 * Integer.BYTES);
    }

    @Test
    void lookupsFindTheNewestMatch() {
        DynamicTable table = new DynamicTable(4096);
        table.add("k", "1");
        table.add("k", "2");
        table.add("other", "1");

        assertThat(table.indexOf("k", "1")).isEqualTo(2);
        assertThat(table.indexOf("k", "2")).isEqualTo(1);
        assertThat(table.indexOfName("k")).isEqualTo(1);
        assertThat(table.indexOf("k", "3")).isEqualTo(-1);
        assertThat(table.indexOfName("missing")).isEqualTo(-1);
    }

    @Test
    void shrinkingToZeroReleasesTheArrays() {
        DynamicTable table = new DynamicTable(4096);
        table.add("a", "b".repeat(1000));

        table.setMaxSize(0);

        assertThat(table.length()).isZero();
        assertThat(table.capacity()).isZero();
    }

    @Test
    void shrinkingTheMaximumShrinksTheRing() {
        DynamicTable table = new DynamicTable(4096);
        for (int i = 0; i < 30; i++) {
            table.add("name" + i, "v".repeat(100));
        }
        int before = table.capacity();

        table.setMaxSize(300);

        assertThat(table.length()).isEqualTo(2);
        assertThat(table.capacity()).isLessThan(before);
        assertThat(table.value(1)).isEqualTo("v".repeat(100));
    }

    @Test
    void entryLargerThanTheTableEmptiesItAndIsNotAdded() {
        DynamicTable table = new DynamicTable(64);
        table.add("a", "b");

        table.add("c", "d".repeat(40));

        assertThat(table.length()).isZero();
        assertThat(table.size()).isZero();
    }
}
