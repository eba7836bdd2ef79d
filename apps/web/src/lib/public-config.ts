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
};

/** Runtime settings from the server; sensible defaults until they arrive (and for prerendering). */
export function usePublicConfig(): PublicConfig {
  const { data } = useQuery({
    queryKey: ['public-config'],
    queryFn: () => api<PublicConfig>('/api/config'),
    staleTime: Infinity,
    enabled: typeof window !== 'undefined',
  });
  return data ?? FALLBACK;
}
