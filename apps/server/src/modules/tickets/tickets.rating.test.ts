import { describe, expect, it } from 'vitest';
import { RATING_OPTIONS, ratingQuestion } from './tickets.lifecycle';

describe('the rating question sent on closing', () => {
  it('reads "de 1 a 3", the scale after the connection\'s own message', () => {
    expect(RATING_OPTIONS).toContain('Digite de 1 a 3 para qualificar');
    expect(ratingQuestion('Avalie nosso atendimento.')).toBe(
      `Avalie nosso atendimento.\n\n${RATING_OPTIONS}`,
    );
    expect(ratingQuestion(null)).toBe(RATING_OPTIONS);
    expect(ratingQuestion('  ')).toBe(RATING_OPTIONS);
  });

  it('is the own message alone when it already asks for a 1 to 3', () => {
    const own = 'De 1 a 3, quanto gostou do atendimento? 1 ruim, 2 bom, 3 ótimo';
    expect(ratingQuestion(own)).toBe(own);
    // a 10 or a 31 is not the scale
    expect(ratingQuestion('Nota de 10 a 31?')).toBe(`Nota de 10 a 31?\n\n${RATING_OPTIONS}`);
  });
});
