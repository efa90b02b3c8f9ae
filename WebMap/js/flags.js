// A country's flag as the emoji of its ISO 3166-1 alpha-2 code (two regional indicator letters).

export function flag(iso2) {
  if (!iso2 || !/^[A-Za-z]{2}$/.test(iso2)) return '🏳️';
  return String.fromCodePoint(...[...iso2.toUpperCase()].map((c) => 0x1f1e6 + c.charCodeAt(0) - 65));
}
