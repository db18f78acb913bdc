/**
 * Phone numbers as WhatsApp knows them: country code, area code, number, digits only. The one
 * normaliser of the product (contact lists, the messages API).
 *
 * Written by hand rather than with libphonenumber-js: the spec takes any 8 to 15 digits as a
 * number, where libphonenumber's validity would refuse numbers the family's clients send, and
 * Brazil's ninth digit as WhatsApp numbers carry it is not a rule of its metadata.
 */

/**
 * Brazil's ninth digit: since 2016 every mobile has nine digits (9 first), but numbers saved
 * before, and some WhatsApp accounts made before, still read with eight. A Brazilian number
 * (55, area code, 8 digits) whose subscriber starts 6 to 9 is that old mobile: it gains its 9.
 * Landlines (2 to 5 first), numbers that already have nine digits and other countries are kept.
 */
export function withNinthDigit(digits: string): string {
  if (digits.length === 12 && digits.startsWith('55') && /^[6-9]$/.test(digits[4]!)) {
    return `${digits.slice(0, 4)}9${digits.slice(4)}`;
  }
  return digits;
}

/**
 * A number as written by a person or a system, normalised: people write Brazilian numbers
 * without the country code ("(11) 98765-4321"), with the long-distance zero ("0 11 ..."), an
 * international prefix typed as 00, and mobiles of before 2016 without the ninth digit
 * ("55 11 8765-4321"); all are read as the same number. A number written with '+' names its own
 * country. Undefined when what was written cannot be a number (letters, too short, too long, a
 * Brazilian number with a bad area code or length).
 */
export function normalizePhoneNumber(raw: string): string | undefined {
  const text = raw.trim();
  if (!text || !/^[\d\s()+.\-/]+$/.test(text)) return undefined;
  let digits = text.replace(/\D/g, '');
  // An international prefix typed as 00 (00 55 11 ...).
  if (digits.startsWith('00')) digits = digits.slice(2);
  // A Brazilian number dialled with the long-distance zero: 0 11 98765-4321.
  else if (digits.startsWith('0') && (digits.length === 11 || digits.length === 12))
    digits = digits.slice(1);
  // Area code and number without the country code: 10 digits (landline or old mobile), 11 (mobile).
  if ((digits.length === 10 || digits.length === 11) && !text.startsWith('+')) {
    if (isBrazilianLocal(digits)) digits = `55${digits}`;
  }
  digits = withNinthDigit(digits);
  // E.164 allows 15 digits; 8 is the spec's least.
  if (digits.length < 8 || digits.length > 15) return undefined;
  if (digits.startsWith('55') && digits.length >= 12 && !isBrazilianLocal(digits.slice(2)))
    return undefined;
  return digits;
}

/** Area code 11-99 (no zero in it) and an 8-digit landline or 9-digit mobile (9 first). */
function isBrazilianLocal(digits: string): boolean {
  if (!/^[1-9][1-9]/.test(digits)) return false;
  const subscriber = digits.slice(2);
  if (subscriber.length === 8) return true;
  return subscriber.length === 9 && subscriber.startsWith('9');
}
