import { createFileRoute } from '@tanstack/react-router';
import { AppFrame } from '../ui/AppFrame';

/** Pathless layout of every signed-in screen (the navigation rules already sent guests to login). */
export const Route = createFileRoute('/_app')({ component: AppFrame });
