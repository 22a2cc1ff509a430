// The `image` object of REST records (spec §3.6): url, id, extension, then width, height, filesize
// and the named sizes when the attachment's dimensions are known; false without an image. The
// same object on events (single and list) and venues, in the original's key order.
import { describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../support/databases.js';
import { useTestServer } from '../support/server.js';

const NS = '/wp-json/calendar/events/v1';
const token = () => Math.random().toString(36).slice(2, 10);
const SIZES = {
  thumbnail: { width: 150, height: 150, 'mime-type': 'image/jpeg', url: 'http://almanac.test/photo-150x150.jpg' },
  medium: { width: 300, height: 225, 'mime-type': 'image/jpeg', url: 'http://almanac.test/photo-300x225.jpg', filesize: 900 },
};

describe.each(DATABASE_KINDS)('image records on %s', (kind) => {
  const api = useTestServer(kind);

  async function attachment(data: { url: string; width?: number; height?: number; filesize?: number; sizes?: string }) {
    const prisma = api.server.db.prisma;
    const id = (await prisma.post.create({ data: { type: 'attachment' } })).id;
    await prisma.attachment.create({ data: { id, mimeType: 'image/jpeg', ...data } });
    return id;
  }

  async function eventWith(image: number) {
    const body = { title: `Pictured ${token()}`, start_date: '2031-03-01 10:00:00', end_date: '2031-03-01 11:00:00', image };
    const created = await api.request('POST', `${NS}/events`, { key: api.keys.administrator, body });
    expect(created.status).toBe(201);
    return created.json as { id: number; title: string };
  }

  /** The image object of the event's single read and of its list entry, as sent (key order kept). */
  async function imagesOf(event: { id: number; title: string }) {
    const single = await api.request('GET', `${NS}/events/${event.id}`);
    const window = 'start_date=2031-03-01&end_date=2031-03-02';
    const list = await api.request('GET', `${NS}/events?${window}&search=${encodeURIComponent(event.title)}`);
    expect(list.json.events).toHaveLength(1);
    return [JSON.stringify(single.json.image), JSON.stringify(list.json.events[0].image)];
  }

  it('with dimensions: url, id, extension (lower case), width, height, filesize, sizes as stored', async () => {
    const url = 'http://almanac.test/uploads/Photo.JPG';
    const id = await attachment({ url, width: 800, height: 600, filesize: 12345, sizes: JSON.stringify(SIZES) });
    const expected = JSON.stringify({ url, id, extension: 'jpg', width: 800, height: 600, filesize: 12345, sizes: SIZES });
    expect(await imagesOf(await eventWith(id))).toEqual([expected, expected]);

    const venue = await api.request('POST', `${NS}/venues`, {
      key: api.keys.administrator,
      body: { venue: `Hall ${token()}`, image: String(id) },
    });
    expect(venue.status).toBe(201);
    expect(JSON.stringify(venue.json.image)).toBe(expected);
  });

  it('without a filesize it is left out; without both dimensions only url, id and extension', async () => {
    const url = 'http://almanac.test/uploads/plan.png';
    const sized = await attachment({ url, width: 10, height: 20, sizes: '' });
    const sizedImage = JSON.stringify({ url, id: sized, extension: 'png', width: 10, height: 20, sizes: {} });
    expect(await imagesOf(await eventWith(sized))).toEqual([sizedImage, sizedImage]);

    const flat = await attachment({ url, width: 10, filesize: 99 });
    const flatImage = JSON.stringify({ url, id: flat, extension: 'png' });
    expect(await imagesOf(await eventWith(flat))).toEqual([flatImage, flatImage]);
  });

  it('no extension key when the path has none; false without an image', async () => {
    const url = 'http://almanac.test/image?id=7.png';
    const id = await attachment({ url });
    const image = JSON.stringify({ url, id });
    expect(await imagesOf(await eventWith(id))).toEqual([image, image]);

    const plain = await api.request('POST', `${NS}/events`, {
      key: api.keys.administrator,
      body: { title: 'No picture', start_date: '2031-03-01 10:00:00', end_date: '2031-03-01 11:00:00' },
    });
    expect(plain.json.image).toBe(false);
  });
});
