import { describe, expect, it } from 'vitest';
import { contrastRatio, formatContrastRatio, isHexColour, normaliseHexColour, relativeLuminance } from '../../../schemas/site-config/colour-contrast';

// WCAG 2.2 "contrast ratio" and "relative luminance" (SC 1.4.3), used by sites:check on brand colours (ADR 0020).
describe('colour contrast (WCAG 2.2)', () => {
  it('gives 21:1 for black on white and 1:1 for a colour on itself, in either order', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 10);
    expect(contrastRatio('#fff', '#000')).toBeCloseTo(21, 10);
    expect(contrastRatio('#0b3d91', '#0b3d91')).toBe(1);
  });

  it('matches the published ratios of well-known pairs', () => {
    // #767676 is the lightest grey that passes AA on white (4.54:1); #777777 just fails (4.47:1).
    expect(formatContrastRatio(contrastRatio('#767676', '#ffffff'))).toBe('4.54:1');
    expect(formatContrastRatio(contrastRatio('#777777', '#ffffff'))).toBe('4.47:1');
    // WebAIM's contrast checker: #0000ff on white is 8.59:1.
    expect(formatContrastRatio(contrastRatio('#0000ff', '#ffffff'))).toBe('8.59:1');
  });

  it('uses the sRGB curve: luminance of pure channels and of mid grey', () => {
    expect(relativeLuminance('#ff0000')).toBeCloseTo(0.2126, 4);
    expect(relativeLuminance('#00ff00')).toBeCloseTo(0.7152, 4);
    expect(relativeLuminance('#0000ff')).toBeCloseTo(0.0722, 4);
    expect(relativeLuminance('#808080')).toBeCloseTo(0.2159, 4);
  });

  it('rounds a ratio down, so a failing 4.499 never reads as 4.50', () => {
    expect(formatContrastRatio(4.4999)).toBe('4.49:1');
    expect(formatContrastRatio(4.5)).toBe('4.50:1');
  });

  it('accepts only opaque hex colours: #rgb or #rrggbb', () => {
    expect(['#fff', '#FFF', '#0b3d91', '#0B3D91'].every(isHexColour)).toBe(true);
    for (const value of ['fff', '#ffff', '#0b3d9180', 'red', 'rgb(0,0,0)', '#ggg', '#000;}body{x:y', ' #fff', '#fff\n'])
      expect(isHexColour(value), value).toBe(false);
    expect(normaliseHexColour('#AbC')).toBe('#aabbcc');
    expect(normaliseHexColour('#0B3D91')).toBe('#0b3d91');
    expect(normaliseHexColour('blue')).toBeNull();
    expect(() => relativeLuminance('blue')).toThrow(RangeError);
  });
});
