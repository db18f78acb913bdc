/** Text PostgreSQL can store: a NUL from the network would fail the insert every time. */
export const storable = (text: string | null | undefined): string =>
  (text ?? '').replaceAll('\u0000', '');

/**
 * A location as message text: the pipeline keeps the body, so the map link (and the place's
 * name) travel in it, the way the original product stored locations.
 */
export function locationBody(latitude: number, longitude: number, name?: string): string {
  const link = `https://maps.google.com/maps?q=${latitude}%2C${longitude}&z=17&hl=pt-BR`;
  return name ? `${link}|${storable(name)}` : link;
}
