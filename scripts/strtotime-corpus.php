<?php
// Writes test/unit/fixtures/strtotime-corpus.json: PHP's own strtotime() results for a few thousand
// date strings, at fixed clocks and in a few default zones, for test/unit/strtotime-corpus.test.ts
// to hold the port (src/calendar/dates/strtotime.ts) against. Tests read the JSON and never need
// PHP; rerun this only to extend the corpus:
//
//   php scripts/strtotime-corpus.php > test/unit/fixtures/strtotime-corpus.json
//
// Inputs are built deterministically (no randomness, no dependence on today's date). Strings PHP
// calls numeric are left out: the port reads those as unix timestamps, as the original does before
// it ever calls strtotime.

declare(strict_types=1);

/** Reference clocks (UTC): a Wednesday afternoon, a DST-change morning, a leap day, a month end. */
$bases = [
    '2026-11-25 14:30:15',
    '2026-03-08 07:30:00',
    '2024-02-29 23:59:59',
    '2018-01-31 12:00:00',
];
/** Default zones strtotime interprets wall times in. */
$zones = ['UTC', 'America/Chicago', 'Europe/Berlin', 'Australia/Sydney', 'Asia/Kolkata'];

$inputs = [];
$add = function (string ...$strings) use (&$inputs): void {
    foreach ($strings as $s) {
        if (!is_numeric($s)) $inputs[$s] = true;
    }
};

// --- absolute dates ------------------------------------------------------------------------------
$ymd = [[2018, 1, 5], [2026, 12, 31], [2024, 2, 29], [2023, 2, 29], [2018, 2, 30], [1999, 7, 4], [2018, 13, 1], [2018, 0, 0], [1970, 1, 1], [2038, 1, 19], [2100, 10, 10]];
$monthNames = ['', 'January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
foreach ($ymd as [$y, $m, $d]) {
    $mm = sprintf('%02d', $m);
    $dd = sprintf('%02d', $d);
    $yy = substr((string) $y, 2);
    $add("$y-$mm-$dd", "$y-$m-$d", "$y/$mm/$dd", "$y/$m/$d", "$mm/$dd/$y", "$m/$d/$y", "$m/$d/$yy", "$mm/$dd", "$m/$d",
        "$dd.$mm.$y", "$d.$m.$y", "$dd.$mm.$yy", "$dd-$mm-$y", "$d-$m-$y", "$y$mm$dd", "$yy-$mm-$dd", "$y-$mm", "$y.$mm.$dd");
    if ($m >= 1 && $m <= 12) {
        $name = $monthNames[$m];
        $abbr = substr($name, 0, 3);
        $add("$d $name $y", "$name $d, $y", "$name $d $y", "$abbr $d $y", "$abbr $d, $y", "$d-$abbr-$y", "$d-$abbr-$yy", "$y-$abbr-$dd",
            "$d $abbr", "$abbr $d", "$name $d", "$name $y", "$abbr $y", "$name", "$abbr", strtolower($name) . " {$d}th", "{$d}th of $name $y",
            "$name {$d}st $y", strtoupper($abbr) . " $d $y", "$abbr. $d, $y", "$d $abbr. $y", "$y $name $d", "$name-$d-$y", "Sat, $d $abbr $y");
    }
}

// --- times ---------------------------------------------------------------------------------------
$times = ['00:00', '14:30', '14:30:15', '9:05', '09:05:07', '23:59:59', '24:00', '24:00:00', '25:00', '12:60', '14:30:60', '14.30', '14.30.15', '14:30:15.5',
    '14:30:15.123456', 'T14:30', 't14:30:15', 'T143015', '1430', '143015', '2pm', '2 pm', '2PM', '2 p.m.', '2:30pm', '2:30 PM', '2:30:45pm', '12am', '12pm',
    '12:00 am', '12:30 a.m.', '0am', '13pm', '11.30pm', 'noon', 'midnight', 'now', 'today', 'tomorrow', 'yesterday', '2:30 pmx', '7am', '7:00am'];
$add(...$times);

// --- date and time together ----------------------------------------------------------------------
$dates = ['2018-01-05', '01/05/2018', '5 January 2018', 'January 5, 2018', 'Jan 5', '5.1.2018', 'tomorrow', 'today', 'yesterday', 'next monday',
    'last friday', 'first day of next month', 'last day of february', '2024-02-29', 'Saturday', 'this sunday', '+1 week', '2 days ago'];
$someTimes = ['14:30', '14:30:15', '2pm', '9:05 am', 'noon', 'midnight', '00:00:00', '23:59', 'T14:30:00', '8:00 pm'];
foreach ($dates as $d) {
    foreach ($someTimes as $t) $add("$d $t", "$t $d");
    $add("{$d}T14:30:00", "$d at 14:30", "$d, 14:30");
}

// --- zones and offsets ---------------------------------------------------------------------------
$zoneSuffixes = ['UTC', 'utc', 'GMT', 'Z', 'z', 'EST', 'EDT', 'CET', 'CEST', 'PST', 'IST', 'JST', 'AEDT', 'NZDT', 'BST', 'MSK', '+02:00', '-05:00', '+0530',
    '-0330', '+2', '-11', '+14:00', '+05:30:00', 'GMT+2', 'GMT-0500', 'UTC+3', '(UTC)', '(EST)', 'Europe/Paris', 'America/New_York', 'Asia/Tokyo',
    'Australia/Lord_Howe', 'Pacific/Chatham', 'Mars/Olympus', 'XYZ', 'FOO', 'a', 'm', 'n', 'y', 'CHADT', 'HST', 'AKST'];
foreach ($zoneSuffixes as $z) {
    $add("2018-01-05 14:30:00 $z", "2018-01-05 14:30 $z", "2018-07-05 14:30:00 $z", "14:30 $z", "tomorrow $z", "2018-01-05T14:30:00$z",
        "next monday 9am $z", "$z", "2026-03-08 02:30:00 $z", "5 January 2018 $z");
}
$add('2018-01-05T14:30:00+02:00', '2018-01-05T14:30:00.123+02:00', '2018-01-05T14:30:00Z', '2018-01-05T14:30:00.000Z', '2018-01-05 14:30:00+0200',
    '2018-01-05T14:30:00 +02:00 Europe/Paris', '2018-01-05 14:30 UTC EST', '2018-01-05 14:30 UTC EST CET', 'Fri, 05 Jan 2018 14:30:00 +0000',
    'Friday, 05-Jan-18 14:30:00 UTC', 'Fri Jan  5 14:30:00 2018', 'Fri Jan 05 2018 14:30:00 GMT+0100 (Central European Standard Time)',
    '2018-01-05T14:30:00+02:00[Europe/Paris]', '@1514764800', '@-1', '@0', '@1514764800.5', '@1514764800 +1 day', '@abc');

// --- DST edges in the default zones --------------------------------------------------------------
foreach (['2026-03-08', '2026-11-01', '2026-03-29', '2026-10-25', '2026-04-05', '2026-10-04'] as $d) {
    foreach (['00:30', '01:30', '02:00', '02:30', '03:00', '03:30'] as $t) $add("$d $t");
    $add("$d +1 day", "$d 01:30 +1 hour", "$d 01:30 +24 hours", "$d 02:30 -1 hour");
}

// --- relative ------------------------------------------------------------------------------------
$units = ['sec', 'second', 'seconds', 'min', 'mins', 'minute', 'minutes', 'hour', 'hours', 'day', 'days', 'week', 'weeks', 'fortnight', 'fortnights',
    'forthnight', 'month', 'months', 'year', 'years', 'msec', 'ms', 'usec', 'µs', 'millisecond', 'microseconds', 'weekday', 'weekdays',
    'monday', 'tuesdays', 'fri', 'sunday'];
foreach ($units as $u) {
    foreach (['+1', '-1', '+0', '2', '-13', '+100', '+ 3', '++1', '+-2', '--1'] as $n) $add("$n $u");
    $add("1 $u ago", "3 $u ago", "-2 $u ago", "next $u", "last $u", "previous $u", "this $u", "first $u", "third $u", "twelfth $u", "+1 $u ago",
        "1 {$u}s", strtoupper("+1 $u"));
}
$weekdays = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday', 'mon', 'Tue', 'WED', 'thurs', 'sat', 'sun'];
foreach ($weekdays as $w) {
    $add($w, "next $w", "last $w", "previous $w", "this $w", "$w next week", "$w this week", "$w last week", "$w 9am", "$w noon", "next $w 16:00",
        "$w +1 week", "+1 week $w", "first $w", "second $w", "last $w of next month", "first $w of january 2018", "$w ago", "$w, January 5, 2018");
}
$add('next week', 'last week', 'this week', 'next month', 'last month', 'this month', 'next year', 'last year', 'this year', 'next day', 'last day',
    'first day of next month', 'last day of this month', 'first day of last month', 'last day of next month', 'first day of january 2018',
    'last day of february', 'last day of february 2024', 'first day of', 'last day of', 'first day of this year', 'last day of next year',
    'first day of +1 month', 'last day of -1 month', 'first day of next month midnight', 'last day of this month 23:59:59', 'first day of 2018-03-15',
    'first day of next month 9am', 'last day of feb 2023',
    '+1 week 2 days', '+1 week 2 days 4 hours 2 seconds', '+1 year -2 months', '-1 month +1 day', '+24 months', '+2 weeks 1 day ago',
    '1 year 2 months 3 days ago', '+1 day +1 day', '+1 day 1 day', 'tomorrow +1 day', 'yesterday -1 day', 'today +3 hours', 'midnight +1 minute',
    'noon tomorrow', 'tomorrow noon', 'yesterday noon', 'tomorrow midnight', '9am tomorrow', 'tomorrow 9am', 'yesterday 23:59', 'today 23:59:59',
    '2018-01-31 +1 month', '2018-01-31 -1 month', '2018-03-31 -1 month', '2024-02-29 +1 year', '2024-02-29 -1 year', '2018-12-31 +1 day',
    '2018-01-01 -1 second', '2018-01-05 next monday', 'next monday 2018-01-05', '2018-01-05 +1 week 2 days', 'now +1 hour', 'now', 'NOW', 'Now',
    'back of 7pm', 'front of 7pm', 'back of 19', 'front of 0', '+1 weekday', '+5 weekdays', '-3 weekdays', 'next weekday', '2018-W01', '2018W01',
    '2018-W01-3', '2018W013', '2018-130', '2018.130', '1 IX 2018', '05-IX-2018', 'IX', '20180105T143000', '20180105t14:30:00', '2018-01-05T14:30:00.123456-05:00',
    '05/Jan/2018:14:30:00 +0100', '2018:01:05 14:30:00', '@1514764800 UTC', 'eighth day', 'eight day', 'sixth month', '1 fortnight ago', 'forthnight',
    '+1 µsec', '+1 µs');

// --- invalid and odd strings ---------------------------------------------------------------------
$add('foo', 'before my birthday', 'not a strtotime parsable string', '2018-01-05 foo', 'foo 2018-01-05', 'tomorrow tomorrow', '2018-01-05 2018-01-06',
    '14:30 15:30', 'next', 'last', '+', '-', '+1', 'ago', 'a', 'Z', 'x', 'xx', '...', ',', ' ', "\t", " \n", '  tomorrow  ', "tomorrow\t9am",
    '2018-01-05,14:30', '2018-01-05.14:30', 'tomorrow,', ',tomorrow', '2018--01-05', '2018-1-5', '18-1-5', '1-5', '01-05', '2018-01-05T', 'T',
    '2018-01-05 25:00', '2018-01-05 24:00', '2018-02-29', '2018-02-31', '0000-00-00', '0000-00-00 00:00:00', '0001-01-01', '9999-12-31 23:59:59',
    '10000-01-01', '-0001-01-01', '99-01-01', '69-01-01', '70-01-01', '00-01-01', '1/1/69', '1/1/70', 'Jan 5 sunday', 'Jan 5 Sunday', 'jan 5th',
    'JANUARY 5TH', 'Jan 5TH', '5th', 'the 5th', 'on monday', 'monday at noon', 'mon.', 'sept 5', 'Sept 5 2018', 'sep 5 2018', 'septe 5',
    'decembre 5', '2018', '1978', '0900', '2359', '2400', '9999', '10000', 'year 2018', 'in 2 days', '2 days from now', 'in a week', 'a week ago',
    'one day', 'two days ago', 'one week ago', 'twelve days', 'firs day', 'lastday of month', 'lastmonday', 'nextmonday', 'next-monday',
    'monday-next', '+1day', '+1days', '+1 d', '+1 h', '+1 hr', '+1 wk', '+1 mo', '+1 y', '1d', '1h', '5m', '1y', '+1 DAY', '+1 Day', '1 Week Ago',
    'TOMORROW', 'Tomorrow 9AM', 'YESTERDAY NOON', 'MIDNIGHT', 'Noon', 'tomorrow9am', '9amtomorrow', 'tomorrow 9', 'tomorrow 9:0', 'tomorrow 9:00:0',
    'tomorrow 09:00:00.5', 'tomorrow 9:00:00,5', '9:00 tomorrow +1 hour', 'tomorrow 9am UTC', 'tomorrow 9am EST EST', 'Europe/Berlin tomorrow',
    'europe/berlin', 'EUROPE/BERLIN', 'America/Argentina/Buenos_Aires', 'Etc/GMT+5', 'Etc/GMT-14', 'UTC+5:30', 'GMT+05:30', 'GMT', 'utc');

// --- combinations, deterministically ---------------------------------------------------------------
$parts = ['2018-01-05', 'Jan 5 2018', 'tomorrow', 'yesterday', 'next friday', 'last day of next month', '+3 days', '-2 weeks', '14:30', '9pm', 'noon',
    'UTC', '+01:00', 'EST', 'Europe/Paris', 'first day of', 'this week', 'saturday', '+1 month', '3 hours ago', '@1514764800', 'midnight', 'T10:00'];
$n = count($parts);
for ($i = 0; $i < $n; $i++) {
    for ($j = 0; $j < $n; $j++) {
        if ($i !== $j) $add("{$parts[$i]} {$parts[$j]}");
    }
}
for ($i = 0; $i < $n; $i++) {
    $add("{$parts[$i]} {$parts[($i * 7 + 3) % $n]} {$parts[($i * 5 + 11) % $n]}");
}

// --- results ---------------------------------------------------------------------------------------
$combos = [];
foreach ($bases as $b) {
    foreach ($zones as $z) $combos[] = [$b, $z];
}
$cases = [];
foreach (array_keys($inputs) as $s) {
    $s = (string) $s; // array keys that look like integers come back as ints
    if ($s === '' || is_numeric($s)) continue;
    $results = [];
    foreach ($combos as [$b, $z]) {
        date_default_timezone_set($z);
        $t = strtotime($s, (new DateTimeImmutable($b, new DateTimeZone('UTC')))->getTimestamp());
        $results[] = $t === false ? null : $t;
    }
    $cases[] = [$s, $results];
}

$out = [
    'generator' => 'scripts/strtotime-corpus.php',
    'php' => PHP_VERSION,
    'note' => 'cases: [input, [strtotime(input, base) or null for each (base, zone) in combos]] — base is a UTC wall time, zone the default zone',
    'combos' => $combos,
    'cases' => $cases,
];
$json = json_encode($out, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE | JSON_THROW_ON_ERROR);
// One case per line keeps diffs readable.
echo str_replace('],["', "],\n[\"", $json), "\n";
