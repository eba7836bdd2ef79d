import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';

const api = vi.hoisted(() => ({ templates: vi.fn(), template: vi.fn(), createTemplate: vi.fn(), updateTemplate: vi.fn(), deleteTemplate: vi.fn() }));
const toast = vi.hoisted(() => ({ error: vi.fn(), success: vi.fn(), warn: vi.fn(), info: vi.fn() }));
vi.mock('react-toastify', () => ({ toast }));
vi.mock('../workflow/workflow-api.ts', async (orig) => ({ ...(await orig<typeof import('../workflow/workflow-api.ts')>()), workflowApi: api }));

const { MappingActions } = await import('./MappingActions.tsx');

const noop = () => {};
function renderMenu() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MappingActions rows={[]} onApplySuggestions={noop} onClearSuggestions={noop} onClearAll={noop} onApplyTemplate={noop} />
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
});
