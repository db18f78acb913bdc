import {
  type CampaignVariable,
  LONGER_INTERVAL_OPTIONS,
  MESSAGE_INTERVAL_OPTIONS,
} from '@atendi/shared';
import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../app/components/PageHeader';
import { toastError } from '../../../app/errors';
import { toast } from '../../../app/toast';
import { useCampaignSettings, useSaveCampaignSettings } from '../api';

interface Values {
  messageInterval: number;
  longerIntervalAfter: number;
  greaterInterval: number;
  variables: CampaignVariable[];
  optOutWords: string;
  dailyLimit: number;
}

const parse = (value: string | undefined, fallback: unknown) => {
  try {
    return value === undefined ? fallback : JSON.parse(value);
  } catch {
    return fallback;
  }
};

/** Adds a variable unless one with its key exists (spec administration 5). */
export function addVariable(list: CampaignVariable[], variable: CampaignVariable) {
  const key = variable.key.trim();
  if (!key || list.some((v) => v.key === key)) return list;
  return [...list, { key, value: variable.value }];
}

/** /campaigns-config: the three interval selects, the variables table, opt-out and the cap. */
export function CampaignsConfigPage() {
  const { t } = useTranslation('campaigns');
  const settings = useCampaignSettings();
  const saveSettings = useSaveCampaignSettings();
  const [values, setValues] = useState<Values | null>(null);
  const [draft, setDraft] = useState<CampaignVariable>({ key: '', value: '' });

  useEffect(() => {
    if (!settings.data || values) return;
    const byKey = new Map(settings.data.map((s) => [s.key, s.value]));
    setValues({
      messageInterval: parse(byKey.get('messageInterval'), 20),
      longerIntervalAfter: parse(byKey.get('longerIntervalAfter'), 20),
      greaterInterval: parse(byKey.get('greaterInterval'), 60),
      variables: parse(byKey.get('variables'), []),
      optOutWords: (parse(byKey.get('optOutWords'), []) as string[]).join(', '),
      dailyLimit: parse(byKey.get('dailyLimit'), 0),
    });
  }, [settings.data, values]);

  if (!values) return <PageHeader title={t('settings.title')} />;

  const seconds = (n: number) =>
    n === 0 ? t('settings.none') : t('settings.seconds', { count: n });
  const intervalSelect = (
    key: 'messageInterval' | 'longerIntervalAfter' | 'greaterInterval',
    options: readonly number[],
  ) => (
    <TextField
      id={`campaign-setting-${key}`}
      select
      label={t(`settings.${key}`)}
      value={values[key]}
      onChange={(event) => setValues({ ...values, [key]: Number(event.target.value) })}
      fullWidth
    >
      {options.map((n) => (
        <MenuItem key={n} value={n}>
          {seconds(n)}
        </MenuItem>
      ))}
    </TextField>
  );

  const onSave = async () => {
    try {
      await saveSettings.mutateAsync({
        settings: {
          messageInterval: values.messageInterval,
          longerIntervalAfter: values.longerIntervalAfter,
          greaterInterval: values.greaterInterval,
          variables: values.variables,
          optOutWords: values.optOutWords
            .split(',')
            .map((word) => word.trim())
            .filter(Boolean),
          dailyLimit: values.dailyLimit,
        },
      });
      toast.success(t('settings.saved'));
    } catch (error) {
      toastError(error);
    }
  };

  return (
    <>
      <PageHeader title={t('settings.title')}>
        <Button variant="contained" onClick={() => void onSave()} disabled={saveSettings.isPending}>
          {t('settings.save')}
        </Button>
      </PageHeader>
      <Paper variant="outlined" sx={{ p: 2, display: 'grid', gap: 2 }}>
        <Typography variant="h6" component="h2">
          {t('settings.intervals')}
        </Typography>
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { md: '1fr 1fr 1fr' } }}>
          {intervalSelect('messageInterval', MESSAGE_INTERVAL_OPTIONS)}
          {intervalSelect('longerIntervalAfter', LONGER_INTERVAL_OPTIONS)}
          {intervalSelect('greaterInterval', LONGER_INTERVAL_OPTIONS)}
        </Box>
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { md: '2fr 1fr' } }}>
          <TextField
            id="campaign-setting-opt-out"
            label={t('settings.optOutWords')}
            helperText={t('settings.optOutHelp')}
            value={values.optOutWords}
            onChange={(event) => setValues({ ...values, optOutWords: event.target.value })}
          />
          <TextField
            id="campaign-setting-daily-limit"
            type="number"
            label={t('settings.dailyLimit')}
            helperText={t('settings.dailyLimitHelp')}
            value={values.dailyLimit}
            onChange={(event) =>
              setValues({ ...values, dailyLimit: Math.max(0, Number(event.target.value) || 0) })
            }
          />
        </Box>
        <Typography variant="h6" component="h2">
          {t('settings.variables')}
        </Typography>
        <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
          <TextField
            id="campaign-variable-key"
            label={t('settings.key')}
            value={draft.key}
            onChange={(event) => setDraft({ ...draft, key: event.target.value })}
          />
          <TextField
            id="campaign-variable-value"
            label={t('settings.value')}
            value={draft.value}
            onChange={(event) => setDraft({ ...draft, value: event.target.value })}
            sx={{ flex: 1, minWidth: 200 }}
          />
          <Button
            startIcon={<AddIcon />}
            onClick={() => {
              setValues({ ...values, variables: addVariable(values.variables, draft) });
              setDraft({ key: '', value: '' });
            }}
          >
            {t('settings.addVariable')}
          </Button>
        </Box>
        <Table size="small" aria-label={t('settings.variables')}>
          <TableHead>
            <TableRow>
              <TableCell>{t('settings.key')}</TableCell>
              <TableCell>{t('settings.value')}</TableCell>
              <TableCell />
            </TableRow>
          </TableHead>
          <TableBody>
            {values.variables.length === 0 && (
              <TableRow>
                <TableCell colSpan={3}>{t('settings.noVariables')}</TableCell>
              </TableRow>
            )}
            {values.variables.map((variable) => (
              <TableRow key={variable.key}>
                <TableCell>{`{{${variable.key}}}`}</TableCell>
                <TableCell>{variable.value}</TableCell>
                <TableCell align="right">
                  <IconButton
                    size="small"
                    aria-label={t('settings.removeVariable', { key: variable.key })}
                    onClick={() =>
                      setValues({
                        ...values,
                        variables: values.variables.filter((v) => v.key !== variable.key),
                      })
                    }
                  >
                    <DeleteOutlineIcon fontSize="small" />
                  </IconButton>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Paper>
    </>
  );
}
