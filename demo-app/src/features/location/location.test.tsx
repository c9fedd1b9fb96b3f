// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { coordinate, degrees, geoLink, mapLink, placeOf, withPlace } from './location';

const place = { latitude: 30.25, longitude: 120.17, name: 'West Lake', address: 'Hangzhou' };

describe('places', () => {
  it('reads coordinates in their ranges only', () => {
    expect(coordinate('30.25', 90)).toBe(30.25);
    expect(coordinate('-90', 90)).toBe(-90);
    expect(coordinate('180', 180)).toBe(180);
    for (const bad of [null, undefined, '', ' ', 'north', '91', '-180.5', 'Infinity', '1e3']) {
      expect(coordinate(bad, bad === '-180.5' ? 180 : 90), String(bad)).toBeUndefined();
    }
    expect(placeOf(new URLSearchParams('latitude=30.25&longitude=120.17&name=West%20Lake'))).toEqual({
      ...place,
      address: '',
    });
    expect(placeOf(new URLSearchParams('latitude=30.25'))).toBeUndefined();
    expect(placeOf(new URLSearchParams('latitude=95&longitude=1'))).toBeUndefined();
  });

  it('writes the place for people, maps and the page that asked', () => {
    expect(degrees(place)).toBe('30.250000, 120.170000');
    expect(mapLink(place)).toBe('https://www.openstreetmap.org/?mlat=30.25&mlon=120.17#map=17/30.25/120.17');
    expect(geoLink(place)).toBe('geo:30.25,120.17?q=30.25,120.17(West%20Lake)');
    expect(geoLink({ ...place, name: '' })).toBe('geo:30.25,120.17?q=30.25,120.17');
    expect(withPlace('/member/address-add?id=3', place)).toBe(
      '/member/address-add?id=3&latitude=30.25&longitude=120.17&name=West+Lake&address=Hangzhou',
    );
    expect(withPlace('/x', { ...place, latitude: 1 })).toContain('/x?latitude=1&');
  });
});
