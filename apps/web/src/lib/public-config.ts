import { useQuery } from '@tanstack/react-query';
import type { PublicConfig } from '@backsignal/contracts';
import { api } from './api.ts';

const FALLBACK: PublicConfig = {
  bookACallUrl: 'https://calendly.com/backsignal/strategy-call',
  captchaSiteKey: null,
  captchaMode: 'dev',
  marketingPixelId: null,
  landingVariant: 'random',
  maxUploadMb: 10,
  // The server's defaults (README, Configuration), shown until its own values arrive.
  quotaUploadMbPerDay: 1024,
  quotaRowsPerDay: 5_000_000,
  retentionDays: 365,
};

/**
 * Runtime settings from the server, and whether they have arrived (`settled`: loaded, or failed so the
 * defaults stand). Anything that must not change once shown (the landing variant) waits for `settled`.
 */
export function usePublicConfigState(): { config: PublicConfig; settled: boolean } {
  const { data, isError } = useQuery({
    queryKey: ['public-config'],
    queryFn: () => api<PublicConfig>('/api/config'),
    staleTime: Infinity,
    retry: 1,
    enabled: typeof window !== 'undefined',
  });
  return { config: data ?? FALLBACK, settled: data !== undefined || isError };
}

/** Runtime settings from the server; sensible defaults until they arrive (and for prerendering). */
export function usePublicConfig(): PublicConfig {
  return usePublicConfigState().config;
}
