import { describe, it, expect } from 'vitest';
import {
  decodeEntities,
  escHtml,
  keepRecent,
  phpTrim,
  plainText,
  renderContent,
  renderExcerpt,
  renderTitle,
  wptexturize,
} from '../../src/calendar/text.js';

describe('wptexturize (cases from the WordPress test suite)', () => {
  const cases: Array<[string, string]> = [
    ['Hey -- boo?', 'Hey &#8212; boo?'],
    ['<a href="http://xx--xx">Hey -- boo?</a>', '<a href="http://xx--xx">Hey &#8212; boo?</a>'],
    ['("test")', '(&#8220;test&#8221;)'],
    ["('test')", '(&#8216;test&#8217;)'],
    ["('twas)", '(&#8217;twas)'],
    ['A dog ("Hubertus") was sent out.', 'A dog (&#8220;Hubertus&#8221;) was sent out.'],
    ["test's", 'test&#8217;s'],
    ["'quoted'", '&#8216;quoted&#8217;'],
    ['"quoted"', '&#8220;quoted&#8221;'],
    ["space before 'quoted' space after", 'space before &#8216;quoted&#8217; space after'],
    ['{"quoted"}', '{&#8220;quoted&#8221;}'],
    [" 'test's quoted' ", ' &#8216;test&#8217;s quoted&#8217; '],
    [' "test\'s quoted" ', ' &#8220;test&#8217;s quoted&#8221; '],
    ['A test with a finishing number, "like 23".', 'A test with a finishing number, &#8220;like 23&#8221;.'],
    ['A test with a number, "like 62", is nice to have.', 'A test with a number, &#8220;like 62&#8221;, is nice to have.'],
    ["'string's'", '&#8216;string&#8217;s&#8217;'],
    ["Class of '99", 'Class of &#8217;99'],
    ["Class of '99's", 'Class of &#8217;99&#8217;s'],
    ["'Class of '99'", '&#8216;Class of &#8217;99&#8217;'],
    ["'Class of '99', she said", '&#8216;Class of &#8217;99&#8217;, she said'],
    ['"Class of 99"', '&#8220;Class of 99&#8221;'],
    ['"Class of \'99"', '&#8220;Class of &#8217;99&#8221;'],
    ['}"Class of \'99"{', '}&#8221;Class of &#8217;99&#8243;{'],
    ['14x24', '14&#215;24'],
    ["9'", '9&#8242;'],
    ['9"', '9&#8243;'],
    ["a 9' b", 'a 9&#8242; b'],
    ['"a 9\' b"', '&#8220;a 9&#8242; b&#8221;'],
    ["'a 9\" b'", '&#8216;a 9&#8243; b&#8217;'],
    ['"12345"', '&#8220;12345&#8221;'],
    ["'12345'", '&#8216;12345&#8217;'],
    [
      "That means every moment you're working on something without it being in the public it's actually dying.",
      'That means every moment you&#8217;re working on something without it being in the public it&#8217;s actually dying.',
    ],
  ];
  it.each(cases)('%s', (input, expected) => {
    expect(wptexturize(input)).toBe(expected);
  });

  it('leaves pre/code/kbd/style/script/tt alone', () => {
    for (const tag of ['pre', 'code', 'kbd', 'style', 'script', 'tt']) {
      expect(wptexturize(`<${tag}>---&</${tag}>`)).toBe(`<${tag}>---&</${tag}>`);
    }
    expect(wptexturize('<code>href="baba"</code> "baba"')).toBe('<code>href="baba"</code> &#8220;baba&#8221;');
    expect(wptexturize('<pre>"baba"<code>"baba"<pre></pre></code>"baba"</pre>')).toBe(
      '<pre>"baba"<code>"baba"<pre></pre></code>"baba"</pre>',
    );
  });

  it('handles dashes, ellipsis, trademark and cockney words', () => {
    expect(wptexturize('a - b')).toBe('a &#8211; b');
    expect(wptexturize('a -- b')).toBe('a &#8212; b');
    expect(wptexturize('a--b')).toBe('a&#8211;b');
    expect(wptexturize('a---b')).toBe('a&#8212;b');
    expect(wptexturize('well-known')).toBe('well-known');
    expect(wptexturize('xn--80ak6aa92e.com')).toBe('xn--80ak6aa92e.com');
    expect(wptexturize('Wait...')).toBe('Wait&#8230;');
    expect(wptexturize('Brand (tm)')).toBe('Brand &#8482;');
    expect(wptexturize("'cause")).toBe('&#8217;cause');
  });

  it('encodes lone ampersands but keeps entities', () => {
    expect(wptexturize('Rock & Roll')).toBe('Rock &#038; Roll');
    expect(wptexturize('A &amp; B &#8217; &#x27;')).toBe('A &amp; B &#8217; &#x27;');
    expect(wptexturize('<a href="?a=1&b=2">x</a>')).toBe('<a href="?a=1&#038;b=2">x</a>');
    expect(wptexturize('<!-- a -- b -->')).toBe('<!-- a -- b -->');
  });

  it('does not turn 0x hex into times', () => {
    expect(wptexturize('0x1234')).toBe('0x1234');
    expect(wptexturize('0.5x2')).toBe('0.5&#215;2');
  });
});

describe('renderTitle', () => {
  it('matches sample titles', () => {
    expect(renderTitle('Jazz Night')).toBe('Jazz Night');
    expect(renderTitle('Jazz Night (updated)')).toBe('Jazz Night (updated)');
  });
  it('texturizes and trims', () => {
    expect(renderTitle('  Rock & Roll\'s "Best" -- Live...  ')).toBe('Rock &#038; Roll&#8217;s &#8220;Best&#8221; &#8212; Live&#8230;');
    expect(renderTitle('Wordpress Meetup')).toBe('WordPress Meetup');
    expect(renderTitle('')).toBe('');
  });
  it('keeps a non-breaking space at the ends like PHP trim', () => {
    expect(renderTitle('\u00a0x ')).toBe('\u00a0x');
  });
});

describe('renderContent / renderExcerpt', () => {
  it('wraps paragraphs (spec §3.1 and samples)', () => {
    expect(renderContent('Event 01 description')).toBe('<p>Event 01 description</p>');
    expect(renderContent('<p>Live jazz</p>')).toBe('<p>Live jazz</p>');
    expect(renderContent('Outdoor art fair')).toBe('<p>Outdoor art fair</p>');
    expect(renderExcerpt('Jazz excerpt')).toBe('<p>Jazz excerpt</p>');
  });
  it('is empty for empty input', () => {
    expect(renderContent('')).toBe('');
    expect(renderExcerpt('')).toBe('');
  });
  it('splits paragraphs and line breaks', () => {
    expect(renderContent('a\n\nb')).toBe('<p>a</p>\n<p>b</p>');
    expect(renderContent('line1\nline2')).toBe('<p>line1<br />\nline2</p>');
  });
  it('texturizes content like the_content', () => {
    expect(renderContent('It\'s "on" & free')).toBe('<p>It&#8217;s &#8220;on&#8221; &#038; free</p>');
    expect(renderContent('Powered by Wordpress')).toBe('<p>Powered by WordPress</p>');
  });
});

describe('escHtml (esc_html, esc_attr)', () => {
  it('escapes like esc_html', () => {
    expect(escHtml('https://example.com/jazz')).toBe('https://example.com/jazz');
    expect(escHtml('http://x.test/?a=1&b=2')).toBe('http://x.test/?a=1&amp;b=2');
    expect(escHtml(`<"it's">`)).toBe('&lt;&quot;it&#039;s&quot;&gt;');
  });
  it('does not double-encode entities', () => {
    expect(escHtml('a &amp; b &#038; c &#x26;')).toBe('a &amp; b &#038; c &#x26;');
  });
});

describe('plainText', () => {
  it('strips tags and decodes entities', () => {
    expect(plainText('<p>Live jazz</p>')).toBe('Live jazz');
    expect(plainText('<p>It&#8217;s &#038; &amp; &quot;x&quot;</p>\n<p>Next</p>')).toBe('It\u2019s & & "x" Next');
    expect(plainText('<p>a<br />\nb</p><script>evil()</script>')).toBe('a b');
    expect(plainText('')).toBe('');
  });
  it('leaves unknown entities as written', () => {
    expect(decodeEntities('&bogus; &#x1F600;')).toBe('&bogus; \u{1F600}');
  });
});

describe('phpTrim', () => {
  it('trims only PHP whitespace', () => {
    expect(phpTrim(' \t\n x \r\0')).toBe('x');
    expect(phpTrim('\u00a0x\u00a0')).toBe('\u00a0x\u00a0');
  });
});

describe('keepRecent', () => {
  it('answers what the render answers, renders a kept text once, and forgets the least recently used first', () => {
    const calls: string[] = [];
    const render = keepRecent((raw: string) => {
      calls.push(raw);
      return raw.toUpperCase();
    }, 290); // room for ten of the texts below (14 characters, and as many in the result)
    const texts = Array.from({ length: 12 }, (_, i) => `text number ${String(i).padStart(2, '0')}`);
    for (const text of texts.slice(0, 10)) expect(render(text)).toBe(text.toUpperCase());
    expect(render(texts[0])).toBe(texts[0].toUpperCase()); // kept: not rendered again, now the most recent
    expect(calls).toHaveLength(10);
    render(texts[10]); // over the budget: the least recently used (texts[1]) goes
    render(texts[0]);
    expect(calls).toHaveLength(11);
    render(texts[1]);
    expect(calls).toHaveLength(12);
    expect(render('')).toBe('');
  });
});
