import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type * as WorkflowApi from '../workflow/workflow-api.ts';

const api = vi.hoisted(() => ({
  templates: vi.fn(),
  template: vi.fn(),
  createTemplate: vi.fn(),
  updateTemplate: vi.fn(),
  deleteTemplate: vi.fn(),
}));
const toast = vi.hoisted(() => ({ error: vi.fn(), success: vi.fn(), warn: vi.fn(), info: vi.fn() }));
vi.mock('react-toastify', () => ({ toast }));
vi.mock('../workflow/workflow-api.ts', async (orig) => ({
  ...(await orig<typeof WorkflowApi>()),
  workflowApi: api,
}));

const { MappingActions } = await import('./MappingActions.tsx');

const noop = () => {};
function renderMenu() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MappingActions
        rows={[]}
        onApplySuggestions={noop}
        onClearSuggestions={noop}
        onClearAll={noop}
        onApplyTemplate={() => []}
      />
      <p>outside</p>
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  vi.clearAllMocks();
  localStorage.clear();
  api.templates.mockResolvedValue([]);
});

describe('MappingActions', () => {
  it("raises the spec's toast when saved templates cannot load", async () => {
    api.templates.mockRejectedValue(new Error('down'));
    renderMenu();
    await userEvent.click(screen.getByRole('button', { name: /Mapping Actions/ }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Failed to load saved templates'));
  });

  it('is a disclosure: expanded state, controlled panel, Escape closes and returns focus', async () => {
    renderMenu();
    const button = screen.getByRole('button', { name: 'Mapping Actions' });
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(button.hasAttribute('aria-haspopup')).toBe(false);
    await userEvent.click(button);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    const panel = document.getElementById(button.getAttribute('aria-controls')!);
    expect(panel?.textContent).toContain('Apply Suggestions');
    // Keyboard: the panel's actions come next in tab order.
    await userEvent.tab();
    expect(document.activeElement?.textContent).toBe('Apply Suggestions');
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('button', { name: 'Apply Suggestions' })).toBeNull();
    expect(document.activeElement).toBe(button);
    expect(button.getAttribute('aria-expanded')).toBe('false');
  });

  it('opens from the keyboard and closes on a click outside', async () => {
    renderMenu();
    const button = screen.getByRole('button', { name: 'Mapping Actions' });
    button.focus();
    await userEvent.keyboard('{Enter}');
    expect(screen.getByRole('button', { name: 'Clear All Mappings' })).toBeTruthy();
    await userEvent.click(screen.getByText('outside'));
    expect(screen.queryByRole('button', { name: 'Clear All Mappings' })).toBeNull();
  });

  it('deletes a template only after a red confirm', async () => {
    api.templates.mockResolvedValue([{ id: 't1', name: 'CRM export' }]);
    api.deleteTemplate.mockResolvedValue(undefined);
    renderMenu();
    await userEvent.click(screen.getByRole('button', { name: 'Mapping Actions' }));
    await waitFor(() => expect(screen.getByRole('option', { name: 'CRM export' })).toBeTruthy());
    await userEvent.selectOptions(screen.getByLabelText('Saved templates'), 't1');
    const del = screen.getByRole('button', { name: 'Delete' });
    expect(del.className).toContain('text-red-700');
    expect(del.className).not.toContain('text-slate-700');
    await userEvent.click(del);
    expect(api.deleteTemplate).not.toHaveBeenCalled();
    expect(screen.getByRole('alert').textContent).toContain('Delete the template CRM export for good?');
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alert')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    await userEvent.click(screen.getByRole('button', { name: 'Delete template' }));
    await waitFor(() => expect(api.deleteTemplate).toHaveBeenCalledWith('t1'));
    expect(toast.success).toHaveBeenCalledWith('Mapping deleted!');
  });

  it('clears all mappings only after a confirm', async () => {
    const onClearAll = vi.fn();
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <MappingActions
          rows={[]}
          onApplySuggestions={noop}
          onClearSuggestions={noop}
          onClearAll={onClearAll}
          onApplyTemplate={() => []}
        />
      </QueryClientProvider>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Mapping Actions' }));
    await userEvent.click(screen.getByRole('button', { name: 'Clear All Mappings' }));
    expect(onClearAll).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: 'Yes, clear everything' }));
    expect(onClearAll).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('button', { name: 'Clear All Mappings' })).toBeNull();
  });

  it('returns focus to the button after an action', async () => {
    renderMenu();
    const button = screen.getByRole('button', { name: 'Mapping Actions' });
    await userEvent.click(button);
    await userEvent.click(screen.getByRole('button', { name: 'Apply Suggestions' }));
    expect(screen.queryByRole('button', { name: 'Apply Suggestions' })).toBeNull();
    expect(document.activeElement).toBe(button);
  });

  it("applies a template with the spec's toast; what it changed is the page's to say", async () => {
    api.templates.mockResolvedValue([{ id: 't1', name: 'Shop' }]);
    api.template.mockResolvedValue({ id: 't1', name: 'Shop', mappings: { Email: 'email' }, hardcoded: {} });
    const onApplyTemplate = vi.fn();
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <MappingActions
          rows={[]}
          onApplySuggestions={noop}
          onClearSuggestions={noop}
          onClearAll={noop}
          onApplyTemplate={onApplyTemplate}
        />
      </QueryClientProvider>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Mapping Actions' }));
    await userEvent.selectOptions(await screen.findByLabelText('Saved templates'), 't1');
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(onApplyTemplate).toHaveBeenCalledWith({ Email: 'email' }, {}, 'Shop'));
    expect(toast.success).toHaveBeenCalledWith('Template applied!');
    expect(toast.warn).not.toHaveBeenCalled();
  });
});
