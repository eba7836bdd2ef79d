import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { FileDrop, ONE_FILE_ONLY, uploadProblem } from './FileDrop.tsx';

const csv = (name: string, bytes = 10) => new File(['x'.repeat(bytes)], name, { type: 'text/csv' });

describe('FileDrop', () => {
  it('hands over every dropped file, so two are not mistaken for none', () => {
    const onFile = vi.fn();
    render(<FileDrop onFile={onFile}>Drop here</FileDrop>);
    const files = [csv('a.csv'), csv('b.csv')];
    fireEvent.drop(screen.getByRole('button'), { dataTransfer: { files } });
    expect(onFile).toHaveBeenCalledWith(files);
  });
});

describe('uploadProblem', () => {
  it.each([
    [[], 'No file selected.'],
    [[csv('a.csv'), csv('b.csv')], ONE_FILE_ONLY],
    [[new File(['x'], 'a.png', { type: 'image/png' })], 'Invalid file type. Please upload a CSV file.'],
    [[csv('big.csv', 2 * 1024 * 1024 + 1)], 'File is too large. Max size is 2MB.'],
    [[csv('a.csv')], null],
  ])('%#: %s', (files, problem) => expect(uploadProblem(files, 2)).toBe(problem));
});
