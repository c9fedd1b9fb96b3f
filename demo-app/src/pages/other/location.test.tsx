// @vitest-environment jsdom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { renderApp, shows, step, Where } from '../../test-utils';
import { installAntdRender } from '../../ui/antd-render';
import ChooseLocation from './choose-location';
import OpenLocation from './open-location';

beforeAll(() => installAntdRender());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const open = (path: string) =>
  renderApp(
    <>
      <Routes>
        <Route path="/other/open-location" element={<OpenLocation />} />
        <Route path="/other/choose-location" element={<ChooseLocation />} />
        <Route path="*" element={<p>elsewhere</p>} />
      </Routes>
      <Where />
    </>,
    { path },
  );
const where = () => screen.getByTestId('where').textContent ?? '';
const field = (label: string) => {
  const item = screen.getByText(label).closest('.adm-list-item');
  const input = item?.querySelector('input');
  if (!input) throw new Error(`no field ${label}`);
  return input;
};

describe('other/open-location: a place', () => {
  it('shows its name, address and coordinates, with a map link and the coordinates to copy', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    open('/other/open-location?latitude=30.25&longitude=120.17&name=West%20Lake&address=Hangzhou');
    await shows('Hangzhou');
    expect(screen.getAllByText('West Lake').length).toBeGreaterThan(0);
    expect(screen.getByTestId('location-coordinates').textContent).toContain('30.250000, 120.170000');
    const map = screen.getByText('Open the map in the browser').closest('a');
    expect(map?.getAttribute('href')).toBe('https://www.openstreetmap.org/?mlat=30.25&mlon=120.17#map=17/30.25/120.17');
    expect(map?.getAttribute('rel')).toBe('noreferrer');
    await step(() => fireEvent.click(screen.getByText('Copy the coordinates')));
    expect(writeText).toHaveBeenCalledWith('30.250000, 120.170000');
  });

  it('says the link does not exist without good coordinates', async () => {
    for (const query of ['', '?latitude=30', '?latitude=91&longitude=1', '?latitude=x&longitude=1']) {
      open(`/other/open-location${query}`);
      await shows('Link does not exist');
      cleanup();
    }
  });
});

describe('other/choose-location: choosing a place', () => {
  it('takes where the phone is, a name and an address, and goes back with them', async () => {
    const getCurrentPosition = vi.fn((done: PositionCallback) =>
      done({ coords: { latitude: 30.2501234, longitude: 120.1709876 } } as GeolocationPosition),
    );
    vi.stubGlobal('navigator', { ...navigator, geolocation: { getCurrentPosition } });
    open(`/other/choose-location?back=${encodeURIComponent('/member/address-add?id=3')}`);
    await shows('Choose a place');
    await step(() => fireEvent.click(screen.getByText('Use where I am')));
    expect(field('Latitude').value).toBe('30.250123');
    expect(field('Longitude').value).toBe('120.170988');
    await step(() => fireEvent.change(field('Name'), { target: { value: '  West Lake ' } }));
    await step(() => fireEvent.change(field('Address'), { target: { value: 'Hangzhou' } }));
    await step(() => fireEvent.click(screen.getByText('Use this place')));
    expect(where()).toBe(
      '/member/address-add?id=3&latitude=30.250123&longitude=120.170988&name=West+Lake&address=Hangzhou',
    );
  });

  it('checks typed coordinates; says when the position is not given; opens the place without a page to go back to', async () => {
    vi.stubGlobal('navigator', {
      ...navigator,
      geolocation: {
        getCurrentPosition: (_: PositionCallback, fail: PositionErrorCallback) => fail({} as GeolocationPositionError),
      },
    });
    open('/other/choose-location?back=https%3A%2F%2Fevil.test%2F');
    await step(() => fireEvent.click(screen.getByText('Use where I am')));
    await shows('Your position is not available: allow it, or enter the coordinates');
    await step(() => fireEvent.click(screen.getByText('Use this place')));
    await shows('Enter a latitude from -90 to 90');
    await step(() => fireEvent.change(field('Latitude'), { target: { value: '30.25' } }));
    await step(() => fireEvent.change(field('Longitude'), { target: { value: '200' } }));
    await step(() => fireEvent.click(screen.getByText('Use this place')));
    await shows('Enter a longitude from -180 to 180');
    await step(() => fireEvent.change(field('Longitude'), { target: { value: '120.17' } }));
    await step(() => fireEvent.click(screen.getByText('Use this place')));
    // Another site is never where a place goes back to: the place opens instead.
    expect(where()).toBe('/other/open-location?latitude=30.25&longitude=120.17&name=&address=');
    await shows('30.250000, 120.170000');
  });
});
