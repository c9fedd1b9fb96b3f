/** A place on the map: where it is, and what it is called. */
export interface Place {
  latitude: number;
  longitude: number;
  name: string;
  address: string;
}

/** A coordinate from text: a number in `[-limit, limit]`, else undefined. */
export function coordinate(text: string | null | undefined, limit: 90 | 180): number | undefined {
  if (text === null || text === undefined || text.trim() === '') return undefined;
  const value = Number(text);
  return Number.isFinite(value) && Math.abs(value) <= limit ? value : undefined;
}

/** The place the query names (`latitude`, `longitude`, `name`, `address`), or undefined without good coordinates. */
export function placeOf(params: URLSearchParams): Place | undefined {
  const latitude = coordinate(params.get('latitude'), 90);
  const longitude = coordinate(params.get('longitude'), 180);
  if (latitude === undefined || longitude === undefined) return undefined;
  return { latitude, longitude, name: params.get('name') ?? '', address: params.get('address') ?? '' };
}

/** The place in degrees, six decimals (about 10 cm), as maps take them: `30.250000, 120.170000`. */
export function degrees(place: Pick<Place, 'latitude' | 'longitude'>): string {
  return `${place.latitude.toFixed(6)}, ${place.longitude.toFixed(6)}`;
}

/** The place on OpenStreetMap's site, marked, at street scale: maps without a key or an app. */
export function mapLink(place: Pick<Place, 'latitude' | 'longitude'>): string {
  const { latitude: lat, longitude: lon } = place;
  return `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lon}#map=17/${lat}/${lon}`;
}

/** The place as a `geo:` URI (RFC 5870), which a phone opens in its maps app, labelled with its name. */
export function geoLink(place: Place): string {
  const at = `${place.latitude},${place.longitude}`;
  const label = place.name ? `(${encodeURIComponent(place.name)})` : '';
  return `geo:${at}?q=${at}${label}`;
}

/** `back` (an app path) with the place added to its query, for the page that asked for one. */
export function withPlace(back: string, place: Place): string {
  const [path = '', query = ''] = back.split('?', 2);
  const params = new URLSearchParams(query);
  params.set('latitude', String(place.latitude));
  params.set('longitude', String(place.longitude));
  params.set('name', place.name);
  params.set('address', place.address);
  return `${path}?${params.toString()}`;
}
