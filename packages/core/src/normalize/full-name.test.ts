import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { splitFullName } from './full-name.ts';

const split = (raw: string) => {
  const s = splitFullName(raw);
  return s && [s.first, s.last];
};

describe('splitFullName (decision 0097)', () => {
  it.each([
    ['Ann Smith', 'Ann', 'Smith'],
    ['  Ann   Smith ', 'Ann', 'Smith'],
    ['Mary Ann Smith', 'Mary Ann', 'Smith'],
    ['Jean-Luc Picard', 'Jean-Luc', 'Picard'],
    ["Siobhán O'Brien", 'Siobhán', "O'Brien"],
    ['Anna Smith-Jones', 'Anna', 'Smith-Jones'],
    // Particles open the last name.
    ['Ludwig van Beethoven', 'Ludwig', 'van Beethoven'],
    ['Vincent van der Berg', 'Vincent', 'van der Berg'],
    ['Sanne van den Broek', 'Sanne', 'van den Broek'],
    ['Maria de la Cruz', 'Maria', 'de la Cruz'],
    ['Jean de La Fontaine', 'Jean', 'de La Fontaine'],
    ['Ursula von der Leyen', 'Ursula', 'von der Leyen'],
    ['Leonardo da Vinci', 'Leonardo', 'da Vinci'],
    ['Lorenzo di Maria', 'Lorenzo', 'di Maria'],
    ['Camille le Gall', 'Camille', 'le Gall'],
    ['Benoît du Pont', 'Benoît', 'du Pont'],
    ['Andrea del Sarto', 'Andrea', 'del Sarto'],
    ['João dos Santos', 'João', 'dos Santos'],
    ['Mary Ann de Souza', 'Mary Ann', 'de Souza'],
    ['Ahmed bin Rashid al Maktoum', 'Ahmed', 'bin Rashid al Maktoum'],
    ['Omar al Farouq', 'Omar', 'al Farouq'],
    ['Robert De Niro', 'Robert', 'De Niro'],
    // A particle first is a first name; a particle last is the surname itself.
    ['Van Morrison', 'Van', 'Morrison'],
    ['Anna Le', 'Anna', 'Le'],
    ['Thi Mai Da', 'Thi Mai', 'Da'],
    // Two surnames: only a joiner says so without a comma.
    ['José Ortega y Gasset', 'José', 'Ortega y Gasset'],
    ['Gabriel García Márquez', 'Gabriel García', 'Márquez'],
    // "Last, First".
    ['García Márquez, Gabriel', 'Gabriel', 'García Márquez'],
    ['Smith, John', 'John', 'Smith'],
    ['van der Berg, Vincent', 'Vincent', 'van der Berg'],
    ['Smith,John', 'John', 'Smith'],
    // Titles and suffixes are dropped.
    ['Mr John Smith', 'John', 'Smith'],
    ['Mrs. Jane Doe', 'Jane', 'Doe'],
    ['Dr. Ann Lee PhD', 'Ann', 'Lee'],
    ['Prof Dr Hans Müller', 'Hans', 'Müller'],
    ['John Smith Jr.', 'John', 'Smith'],
    ['John Smith, Jr.', 'John', 'Smith'],
    ['Martin Luther King Jr', 'Martin Luther', 'King'],
    ['Henry Ford III', 'Henry', 'Ford'],
    ['Smith, Dr. John', 'John', 'Smith'],
    ['Smith Jr., John', 'John', 'Smith'],
    ['Sr. Juan Pérez', 'Juan', 'Pérez'],
    ['Juan Pérez Sr.', 'Juan', 'Pérez'],
    // A single word is a first name only.
    ['Cher', 'Cher', ''],
    ['Mr Bean', 'Bean', ''],
    ['Prince,', 'Prince', ''],
    // A lone title is left as written, never emptied to nothing.
    ['Dr', 'Dr', ''],
    // Other scripts are words like any other.
    ['Анна Каренина', 'Анна', 'Каренина'],
    ['Zoë Ελένη Παπαδοπούλου', 'Zoë Ελένη', 'Παπαδοπούλου'],
  ])('%j → %j + %j', (raw, first, last) => expect(split(raw)).toEqual([first, last]));

  it('says which titles and suffixes it left out', () => {
    expect(splitFullName('Dr. Ann Lee PhD')?.dropped.sort()).toEqual(['Dr.', 'PhD']);
    expect(splitFullName('John Smith, Jr.')?.dropped).toEqual(['Jr.']);
  });

  it.each(['', '   ', ',', ' , '])('%j has no name', (raw) => expect(splitFullName(raw)).toBeNull());

  // Nothing is lost: the first and last name, with the dropped titles and suffixes, are the cell's words, and
  // first then last keeps their order.
  const word = fc.oneof(
    fc.constantFrom(
      'Ann',
      'van',
      'der',
      'de',
      'la',
      'y',
      'Mr',
      'Dr.',
      'Jr',
      'III',
      'PhD',
      'bin',
      'al',
      'Le',
      'José',
      "O'Brien",
      'Smith-Jones',
    ),
    fc.stringMatching(/^[A-Za-zÀ-ÿ'-]{1,8}$/),
  );
  it('keeps every word but the dropped titles and suffixes, in order', () => {
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 7 }), (tokens) => {
        const s = splitFullName(tokens.join(' '))!;
        const kept = [...s.first.split(' '), ...s.last.split(' ')].filter(Boolean);
        expect([...kept, ...s.dropped].sort()).toEqual([...tokens].sort());
        // In order: the kept words are the cell's words with the dropped ones taken out.
        let at = 0;
        for (const k of kept) {
          while (tokens[at] !== k) at++;
          at++;
        }
        expect(s.first).not.toBe('');
      }),
    );
  });

  it('keeps every word of a "Last, First" cell', () => {
    fc.assert(
      fc.property(
        fc.array(word, { minLength: 1, maxLength: 3 }),
        fc.array(word, { minLength: 1, maxLength: 3 }),
        (last, first) => {
          const s = splitFullName(`${last.join(' ')}, ${first.join(' ')}`)!;
          const kept = [...s.first.split(' '), ...s.last.split(' ')].filter(Boolean);
          expect([...kept, ...s.dropped].sort()).toEqual([...last, ...first].sort());
        },
      ),
    );
  });
});
