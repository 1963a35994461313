package dev.fabrictwin.ingest.format.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import dev.fabrictwin.contract.sample.RejectReason;
import dev.fabrictwin.contract.sample.SampleFormatException;
import dev.fabrictwin.ingest.format.AdapterContract;
import dev.fabrictwin.ingest.format.CollectingSink;
import dev.fabrictwin.ingest.format.LineReader;
import dev.fabrictwin.ingest.format.ParseContext;
import dev.fabrictwin.ingest.format.Rejection;

class LineUnitTest {

    private static final ParseContext CONTEXT = ParseContext.defaults(AdapterContract.CLOCK).withDevice("dut");

    private static LineReader.Line line(final long number, final String text) {
        return new LineReader.Line(text.getBytes(StandardCharsets.UTF_8), number, false);
    }

    @Test
    void shouldReportNothingForAUnitOfBlankLinesOnly() {
        final LineUnit unit = new LineUnit("f", "dump", "no host", CONTEXT);
        unit.addBlank(line(1, ""));
        final CollectingSink sink = new CollectingSink();

        assertThat(unit.finish(sink)).isNull();
        assertThat(sink.records).isZero();
    }

    @Test
    void shouldReportLineRejectionsAfterCountingTheRecordAndReturnTheDevice() {
        final LineUnit unit = new LineUnit("f", "dump", "no host", CONTEXT);
        unit.addLine(line(3, "a: 1"));
        unit.addBlank(line(4, ""));
        unit.addLine(line(5, "b: x"));
        unit.reject(line(5, "b: x"), new SampleFormatException(RejectReason.NON_NUMERIC, "bad"));
        final CollectingSink sink = new CollectingSink();

        assertThat(unit.finish(sink)).isEqualTo("dut");
        assertThat(sink.records).isEqualTo(1);
        assertThat(unit.where()).isEqualTo("lines 3-5");
        assertThat(sink.rejections).singleElement().extracting(Rejection::location).isEqualTo("line 5");
        assertThat(new String(unit.raw().bytes(), StandardCharsets.UTF_8)).isEqualTo("a: 1\n\nb: x");
    }

    @Test
    void shouldRejectAUnitWithoutDeviceWholeInsteadOfItsLines() {
        final LineUnit unit = new LineUnit("f", "scrape", "no host", ParseContext.defaults(AdapterContract.CLOCK));
        unit.addLine(line(7, "x 1"));
        unit.rejectOversized(line(7, "x 1"));
        final CollectingSink sink = new CollectingSink();

        assertThat(unit.finish(sink)).isNull();
        assertThat(sink.rejections).singleElement().satisfies(r -> {
            assertThat(r.reason()).isEqualTo(RejectReason.MISSING_DEVICE);
            assertThat(r.message()).isEqualTo("no host");
            assertThat(r.location()).isEqualTo("line 7");
        });
    }
}
