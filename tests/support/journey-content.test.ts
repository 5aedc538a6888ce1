import { describe, expect, it } from 'vitest';
import { contentTextsIn } from '../e2e/support/site-journey/journey-site';

describe('the journey matrix reads a locale’s texts as the gateway serves them (ADR 0013 content fallback)', () => {
  it('a locale with its own file reads it, and en_us for a key it lacks', () => {
    expect(contentTextsIn('pt_br')('common', 'title.login')).toBe('Entrar');
    expect(contentTextsIn('pt_br')('cards', 'product.A')).toBe(contentTextsIn('en_us')('cards', 'product.A'));
  });

  it('a locale without a file reads its language’s nearest one (pt_pt reads pt_br, es_mx es_co), never English first', () => {
    expect(contentTextsIn('pt_pt')('common', 'title.login')).toBe('Entrar');
    expect(contentTextsIn('es_mx')('common', 'title.login')).toBe(contentTextsIn('es_co')('common', 'title.login'));
    expect(contentTextsIn('es_mx')('common', 'title.login')).not.toBe(contentTextsIn('en_us')('common', 'title.login'));
  });
});
