<?php
/**
 * The plugin's one option: where the widget comes from and what a block or shortcode shows by default.
 *
 * @package ClinicBooking
 */

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

const CLINIC_BOOKING_OPTION = 'clinic_booking_settings';

/**
 * The settings as saved, each key present.
 *
 * @return array{widget_url: string, sections: string, mode: string, lang: string, theme_color: string, phone: string}
 */
function clinic_booking_settings() {
	$saved = get_option( CLINIC_BOOKING_OPTION, array() );
	return array_merge( clinic_booking_default_settings(), is_array( $saved ) ? array_intersect_key( $saved, clinic_booking_default_settings() ) : array() );
}

/**
 * What a new install starts with: a WordPress page wants the booking form, not the whole clinic site.
 *
 * @return array{widget_url: string, sections: string, mode: string, lang: string, theme_color: string, phone: string}
 */
function clinic_booking_default_settings() {
	return array(
		'widget_url'  => '',
		'sections'    => 'booking',
		'mode'        => '',
		'lang'        => '',
		'theme_color' => '',
		'phone'       => '',
	);
}

/**
 * The language a widget speaks when neither the block nor the settings name one: the site's own (en_GB: en-GB).
 *
 * @return string
 */
function clinic_booking_site_lang() {
	return Clinic_Booking_Lists::lang_for_locale( get_locale() );
}

/**
 * The BFF's base for this clinic, ending in a slash: what an administrator typed, with a pasted script URL
 * (…/widget/clinic-booking.js) or API URL (…/api) cut back to it. '' for anything but an http(s) URL.
 *
 * @param mixed $url What was typed.
 * @return string
 */
function clinic_booking_normalise_widget_url( $url ) {
	if ( ! is_string( $url ) ) {
		return '';
	}
	$url = esc_url_raw( trim( $url ), array( 'http', 'https' ) );
	if ( '' === $url ) {
		return '';
	}
	$parts = wp_parse_url( $url );
	if ( ! is_array( $parts ) || empty( $parts['host'] ) || isset( $parts['query'] ) || isset( $parts['fragment'] ) || isset( $parts['user'] ) ) {
		return '';
	}
	$path = isset( $parts['path'] ) ? $parts['path'] : '/';
	$path = preg_replace( '#/widget/clinic-booking\.js$#', '/', $path );
	$path = preg_replace( '#/api(/.*)?$#', '/', $path );
	$path = rtrim( $path, '/' ) . '/';
	$port = isset( $parts['port'] ) ? ':' . (int) $parts['port'] : '';
	return strtolower( $parts['scheme'] ) . '://' . strtolower( $parts['host'] ) . $port . $path;
}

/**
 * The widget's script on the configured BFF, or '' when none is set.
 *
 * @return string
 */
function clinic_booking_script_url() {
	$base = clinic_booking_settings()['widget_url'];
	return '' === $base ? '' : $base . 'widget/clinic-booking.js';
}

/**
 * Cleans every value of the settings form before WordPress saves it; a value that cannot be used keeps the
 * one saved before, and the form says why.
 *
 * @param mixed $input The posted values.
 * @return array The settings to save.
 */
function clinic_booking_sanitize_settings( $input ) {
	// options.php has unslashed the form's values already.
	$before = clinic_booking_settings();
	$input  = is_array( $input ) ? $input : array();
	$clean  = $before;

	$typed = isset( $input['widget_url'] ) && is_string( $input['widget_url'] ) ? trim( $input['widget_url'] ) : '';
	$url   = clinic_booking_normalise_widget_url( $typed );
	if ( '' === $typed || '' !== $url ) {
		$clean['widget_url'] = $url;
	} else {
		add_settings_error( CLINIC_BOOKING_OPTION, 'widget_url', __( 'The widget URL must be an http or https address, such as https://book.example.com/ or https://book.example.com/s/{site_id}/.', 'clinic-booking' ) );
	}

	$clean['sections'] = Clinic_Booking_Lists::sections( isset( $input['sections'] ) ? $input['sections'] : array() );
	$clean['mode']     = Clinic_Booking_Lists::mode( isset( $input['mode'] ) ? $input['mode'] : '' );

	$typed_lang = isset( $input['lang'] ) && is_string( $input['lang'] ) ? trim( $input['lang'] ) : '';
	$lang       = Clinic_Booking_Lists::lang( $typed_lang );
	if ( '' === $typed_lang || '' !== $lang ) {
		$clean['lang'] = $lang;
	} else {
		add_settings_error(
			CLINIC_BOOKING_OPTION,
			'lang',
			/* translators: %s: the languages the widget speaks, e.g. "en, de, fr". */
			sprintf( __( 'The language must be one the widget speaks (%s), optionally with a region such as en-GB.', 'clinic-booking' ), implode( ', ', Clinic_Booking_Lists::LANGUAGES ) )
		);
	}

	$typed_color = isset( $input['theme_color'] ) && is_string( $input['theme_color'] ) ? trim( $input['theme_color'] ) : '';
	$color       = sanitize_hex_color( $typed_color );
	if ( '' === $typed_color || $color ) {
		$clean['theme_color'] = (string) $color;
	} else {
		add_settings_error( CLINIC_BOOKING_OPTION, 'theme_color', __( 'The theme colour must be a hex colour such as #0f766e.', 'clinic-booking' ) );
	}

	$phone          = isset( $input['phone'] ) && is_string( $input['phone'] ) ? sanitize_text_field( $input['phone'] ) : '';
	$clean['phone'] = function_exists( 'mb_substr' ) ? mb_substr( $phone, 0, 60 ) : substr( $phone, 0, 60 );

	return $clean;
}

/**
 * The number a tel: link dials: the digits of the phone as written, with its leading +.
 *
 * @param string $phone The phone as the settings hold it.
 * @return string '' when it has no digits.
 */
function clinic_booking_tel_href( $phone ) {
	$digits = preg_replace( '/[^0-9]/', '', $phone );
	if ( '' === $digits ) {
		return '';
	}
	return 'tel:' . ( 0 === strpos( ltrim( $phone ), '+' ) ? '+' : '' ) . $digits;
}
