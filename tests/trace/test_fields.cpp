// Number parsing, splitting and message quoting: the pieces every importer's error text relies on.

#include "trace/fields.h"

#include <QtTest>

using namespace schedlab::trace;

class TestFields : public QObject {
    Q_OBJECT
private slots:
    void parseInt64_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("status");
        QTest::addColumn<qint64>("value");
        QTest::newRow("plain") << "812" << int(ParseStatus::Ok) << qint64(812);
        QTest::newRow("blanks") << "  -1 " << int(ParseStatus::Ok) << qint64(-1);
        QTest::newRow("plus") << "+7" << int(ParseStatus::Ok) << qint64(7);
        QTest::newRow("exact decimal") << "12.00" << int(ParseStatus::Ok) << qint64(12);
        QTest::newRow("fraction") << "12.5" << int(ParseStatus::NotANumber) << qint64(0);
        QTest::newRow("word") << "abc" << int(ParseStatus::NotANumber) << qint64(0);
        QTest::newRow("trailing junk") << "12x" << int(ParseStatus::NotANumber) << qint64(0);
        QTest::newRow("empty") << "" << int(ParseStatus::Empty) << qint64(0);
        QTest::newRow("2^63") << "9223372036854775808" << int(ParseStatus::OutOfRange) << qint64(0);
        QTest::newRow("max") << "9223372036854775807" << int(ParseStatus::Ok) << qint64(INT64_MAX);
    }
    void parseInt64()
    {
        QFETCH(QString, text);
        QFETCH(int, status);
        QFETCH(qint64, value);
        const std::string s = text.toStdString();
        int64_t out = 0;
        QCOMPARE(int(schedlab::trace::parseInt64(s, out)), status);
        if (status == int(ParseStatus::Ok))
            QCOMPARE(qint64(out), value);
    }

    void parseDoubleRejectsNonFinite()
    {
        double d = 0;
        QCOMPARE(parseDouble("nan", d), ParseStatus::NotFinite);
        QCOMPARE(parseDouble("-inf", d), ParseStatus::NotFinite);
        QCOMPARE(parseDouble("1e999", d), ParseStatus::OutOfRange);
        QCOMPARE(parseDouble("552.21", d), ParseStatus::Ok);
        QCOMPARE(d, 552.21);
        QCOMPARE(parseDouble("1,5", d), ParseStatus::NotANumber); // no locale surprises
    }

    void scaledDecimalIsExact_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<qint64>("value");
        QTest::newRow("google cpu") << "0.125" << qint64(125000000);
        QTest::newRow("seven decimals") << "0.0001554" << qint64(155400);
        QTest::newRow("one") << "1" << qint64(1000000000);
        QTest::newRow("rounds 10th decimal") << "0.0000000015" << qint64(2);
        QTest::newRow("exponent") << "1.5e-3" << qint64(1500000);
    }
    void scaledDecimalIsExact()
    {
        QFETCH(QString, text);
        QFETCH(qint64, value);
        int64_t out = -1;
        QCOMPARE(parseScaledDecimal(text.toStdString(), 9, out), ParseStatus::Ok);
        QCOMPARE(qint64(out), value);
    }

    void splitting()
    {
        std::vector<std::string_view> f;
        splitChar("a,,b,", ',', f);
        QCOMPARE(f.size(), std::size_t(4));
        QCOMPARE(f[1], std::string_view());
        QCOMPARE(f[2], std::string_view("b"));
        splitWhitespace("   1  2\t3   ", f);
        QCOMPARE(f.size(), std::size_t(3));
        QCOMPARE(f[2], std::string_view("3"));
        splitWhitespace("     ", f);
        QVERIFY(f.empty());
    }

    void quotingEscapesBadBytes()
    {
        QCOMPARE(schedlab::trace::quoted("abc"), std::string("'abc'"));
        QCOMPARE(schedlab::trace::quoted("a\xFF" "b"), std::string("'a\\xFFb'"));
        QCOMPARE(schedlab::trace::quoted("tab\there"), std::string("'tab\\x09here'"));
        QCOMPARE(schedlab::trace::quoted("caf\xC3\xA9"), std::string("'caf\xC3\xA9'")); // valid UTF-8 kept
        QVERIFY(schedlab::trace::quoted(std::string(100, 'x')).ends_with("...'"));
        QCOMPARE(parseMessage(ParseStatus::NotANumber, "abc"), std::string("'abc' is not a number"));
    }

    void utf8()
    {
        QVERIFY(isValidUtf8("plain"));
        QVERIFY(isValidUtf8("\xE2\x82\xAC"));
        QVERIFY(!isValidUtf8("\xC0\xAF")); // overlong
        QVERIFY(!isValidUtf8("\xED\xA0\x80")); // surrogate
        QCOMPARE(sanitizeUtf8("a\xFF" "b"), std::string("a?b"));
    }

    void formatDoubleRoundTrips()
    {
        for (double v : { 0.1, 5611.086346, 1.0 / 3.0, 12902960.0, -1.0, 1e-300 }) {
            double back = 0;
            QCOMPARE(parseDouble(formatDouble(v), back), ParseStatus::Ok);
            QCOMPARE(back, v);
        }
    }
};

QTEST_GUILESS_MAIN(TestFields)
#include "test_fields.moc"
