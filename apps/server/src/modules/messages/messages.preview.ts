import { type MediaType, readVcard } from '@atendi/shared';

/**
 * What a ticket's list line shows for its last message (`tickets.last_message`): the text typed,
 * or a label for what is not text. Stored in Portuguese, the product's language, because the
 * spec's clients show it as it is; our web shows it the same way.
 */
const LABELS: Partial<Record<MediaType, string>> = {
  image: '📷 Imagem',
  audio: '🎤 Áudio',
  video: '🎥 Vídeo',
  application: '📄 Documento',
  locationMessage: '📍 Localização',
  vcard: '👤 Contato',
  call_log: '📞 Chamada perdida',
};

/** Longest preview kept on the ticket. */
const PREVIEW_MAX = 255;

export function previewOf(message: { mediaType: MediaType; body: string }): string {
  const { mediaType, body } = message;
  // A contact card's body is its vCard: the card's name is what a person reads.
  if (mediaType === 'vcard') {
    // Some networks give only the card's display name, which the reader takes as the name.
    const name = readVcard(body).name;
    return (name ? `👤 ${name}` : LABELS.vcard!).slice(0, PREVIEW_MAX);
  }
  // A location's body is its map link and a missed call's a note: data, not words to show.
  if (mediaType === 'locationMessage' || mediaType === 'call_log') return LABELS[mediaType]!;
  // Text, or the caption of a file (a file's name is not a preview: the agent's own files
  // read like the contact's).
  if (body.trim()) return body.slice(0, PREVIEW_MAX);
  return LABELS[mediaType] ?? '';
}
