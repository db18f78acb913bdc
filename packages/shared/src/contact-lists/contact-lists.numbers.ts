/**
 * A phone number as WhatsApp knows it: country code, area code, number, digits only. People
 * write Brazilian numbers without the country code ("(11) 98765-4321") and mobile numbers of
 * before 2016 without the ninth digit ("55 11 8765-4321"); both are read as the same number.
 * Undefined when what was written cannot be a number (letters, too short, too long).
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
  // Brazil's ninth digit: an old 8-digit mobile (6 to 9 first) gains its 9.
  if (digits.length === 12 && digits.startsWith('55') && /^[6-9]$/.test(digits[4]!)) {
    digits = `${digits.slice(0, 4)}9${digits.slice(4)}`;
  }
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
