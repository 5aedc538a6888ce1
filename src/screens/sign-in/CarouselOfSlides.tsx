import { useEffect, useId, useState, useSyncExternalStore } from 'react';
import type { ContentTexts } from '../../api/content-api';
import { useContentTexts } from '../../content/use-content-texts';
import { useText } from '../../content/use-text';
import './site-carousel.css';

/** Long enough to read a slide's two lines; WCAG 2.2.2 asks for the pause button, which is there. */
const ROTATION_MS = 7000;
const MAX_SLIDES = 10;

interface Slide {
  title: string;
  text: string;
}

/** The content's slides: `slide.1.title`, `slide.1.text`, `slide.2.title`, … up to the first missing title. */
function slidesOf(texts: ContentTexts): Slide[] {
  const slides: Slide[] = [];
  for (let number = 1; number <= MAX_SLIDES; number++) {
    const title = texts[`slide.${number}.title`];
    if (title === undefined || title.trim() === '') break;
    slides.push({ title, text: texts[`slide.${number}.text`] ?? '' });
  }
  return slides;
}

const REDUCED_MOTION_QUERY = '(prefers-reduced-motion: reduce)';

function prefersReducedMotion(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia(REDUCED_MOTION_QUERY).matches;
}

function onReducedMotionChange(changed: () => void): () => void {
  if (typeof window.matchMedia !== 'function') return () => undefined;
  const query = window.matchMedia(REDUCED_MOTION_QUERY);
  query.addEventListener('change', changed);
  return () => query.removeEventListener('change', changed);
}

/**
 * The visitor's motion preference: unknown on the server, which draws the carousel as a browser without the
 * preference would; the browser takes it over right after hydrating (ADR 0024).
 */
function usePrefersReducedMotion(): boolean {
  return useSyncExternalStore(onReducedMotionChange, prefersReducedMotion, () => false);
}

/**
 * SPEC §3's carousel of a site whose cms tenant is not vpp, on sign-in and registration: the
 * content's slides (group `carousel`, per locale), built as WAI-ARIA APG's auto-rotating carousel.
 * The rotation button comes first, then previous, the slide picker and next; rotation stops while
 * the pointer or the keyboard focus is inside, and never starts by itself under
 * prefers-reduced-motion. While it rotates the slides are not a live region; paused, a change is
 * announced politely.
 */
export default function CarouselOfSlides() {
  const slides = slidesOf(useContentTexts('carousel'));
  const text = useText('carousel');
  const slidesId = useId();
  const [current, setCurrent] = useState(0);
  const reducedMotion = usePrefersReducedMotion();
  // Until the person presses the rotation button, the motion preference decides.
  const [chosenPlaying, setPlaying] = useState<boolean | null>(null);
  const playing = chosenPlaying ?? !reducedMotion;
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const count = slides.length;
  const rotating = playing && !hovered && !focused && count > 1;

  useEffect(() => {
    if (!rotating) return undefined;
    const timer = window.setInterval(() => setCurrent((shown) => (shown + 1) % count), ROTATION_MS);
    return () => window.clearInterval(timer);
  }, [rotating, count]);

  if (count === 0) return null;
  const shown = current % count;
  const show = (index: number) => setCurrent((index + count) % count);

  return (
    <section
      className="carousel"
      aria-roledescription={text('roleDescription')}
      aria-label={text('label')}
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget)) setFocused(false);
      }}
    >
      <div id={slidesId} className="carousel__slides" aria-live={rotating ? 'off' : 'polite'}>
        {slides.map((slide, index) => (
          <div
            key={index}
            className={`carousel__slide carousel__slide--${index % 2 === 0 ? 'primary' : 'accent'}`}
            role="group"
            aria-roledescription={text('slideRoleDescription')}
            aria-label={text('position', { number: index + 1, count })}
            hidden={index !== shown}
          >
            <h2 className="carousel__title">{slide.title}</h2>
            <p className="carousel__text">{slide.text}</p>
          </div>
        ))}
      </div>
      <div className="carousel__controls">
        <button type="button" className="carousel__rotation" aria-controls={slidesId} onClick={() => setPlaying(!playing)}>
          <span className="carousel__icon" aria-hidden="true">
            {playing ? '❚❚' : '▶'}
          </span>
          {text(playing ? 'pause' : 'play')}
        </button>
        <div className="carousel__steps">
          <button type="button" className="carousel__step" aria-controls={slidesId} aria-label={text('previous')} onClick={() => show(shown - 1)}>
            <span className="carousel__arrow carousel__arrow--previous" aria-hidden="true" />
          </button>
          <div className="carousel__picker" role="group" aria-label={text('picker')}>
            {slides.map((_slide, index) => (
              <button
                key={index}
                type="button"
                className="carousel__pick"
                aria-controls={slidesId}
                aria-label={text('show', { number: index + 1 })}
                aria-current={index === shown ? 'true' : undefined}
                onClick={() => show(index)}
              />
            ))}
          </div>
          <button type="button" className="carousel__step" aria-controls={slidesId} aria-label={text('next')} onClick={() => show(shown + 1)}>
            <span className="carousel__arrow carousel__arrow--next" aria-hidden="true" />
          </button>
        </div>
      </div>
    </section>
  );
}
